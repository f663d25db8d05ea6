import DBus

/// A remote device (`org.bluez.Device1`), e.g. a heart-rate strap.
public struct Device: BlueZObject {
    /// The interface `invoke`, `setProperty` and `property` address on this object.
    public static let interface = BlueZName.device
    /// The mirror this handle was looked up in; calls go out over its connection.
    public let client: BlueZClient
    /// bluetoothd's object path: the handle's identity (handles at the same path are equal).
    public let path: DBusObjectPath

    /// A snapshot of what bluetoothd reports about the device.
    public struct Info: Sendable, Equatable {
        /// The Bluetooth address as bluetoothd reports it (`F0:1D:2E:3C:4B:5A`); empty if missing.
        public var address: String
        /// The name the device advertises (`Name`), `nil` until bluetoothd has seen one.
        public var name: String?
        /// bluetoothd's display name (`Alias`): set by a user, else derived from name or address.
        public var alias: String?
        /// Signal strength of the last advertisement, in dBm; `nil` when bluetoothd has none
        /// (it reports `RSSI` from advertisements seen during discovery).
        public var rssi: Int?
        /// The service UUIDs advertised or resolved (`UUIDs`), in BlueZ's lower-case 128-bit form.
        public var serviceUUIDs: [String]
        /// Whether bluetoothd has a link to the device now (`Connected`).
        public var isConnected: Bool
        /// Whether GATT discovery has finished (`ServicesResolved`); the characteristics may still
        /// appear later, so use `waitForCharacteristic`.
        public var areServicesResolved: Bool
        /// Whether pairing has completed (`Paired`).
        public var isPaired: Bool
        /// Whether the pairing keys are stored (`Bonded`), so the pairing survives reconnections.
        public var isBonded: Bool
        /// Whether bluetoothd lets the device reconnect by itself (`Trusted`, see `setTrusted`).
        public var isTrusted: Bool
        /// Battery level in percent (0–100) from `org.bluez.Battery1`; `nil` when the device has no
        /// Battery Service (or bluetoothd has not exported it yet).
        public var batteryPercentage: Int?
    }

    /// The device's current properties, or `nil` when it is gone from the mirror.
    public var info: Info? {
        get async {
            guard let object = await client.object(at: path), let device = object[BlueZName.device] else { return nil }
            return Info(
                address: device["Address"]?.string ?? "",
                name: device["Name"]?.string,
                alias: device["Alias"]?.string,
                rssi: device["RSSI"]?.integer,
                serviceUUIDs: device["UUIDs"]?.strings ?? [],
                isConnected: device["Connected"]?.bool ?? false,
                areServicesResolved: device["ServicesResolved"]?.bool ?? false,
                isPaired: device["Paired"]?.bool ?? false,
                isBonded: device["Bonded"]?.bool ?? false,
                isTrusted: device["Trusted"]?.bool ?? false,
                batteryPercentage: object[BlueZName.battery]?["Percentage"]?.integer)
        }
    }

    private var label: String { path.lastElement.replacingUnderscores() }

    /// Connects; returns when bluetoothd has the link (services may still be resolving).
    public func connect(timeout: Duration = DBusConnection.defaultTimeout) async throws(BlueZError) {
        _ = try await invoke("Connect", operation: "Connect \(label)", timeout: timeout)
    }

    /// Drops the link.
    public func disconnect() async throws(BlueZError) {
        _ = try await invoke("Disconnect", operation: "Disconnect \(label)")
    }

    /// Pairs (Just Works is confirmed by bluetoothd itself when the gateway initiates it).
    public func pair(timeout: Duration = DBusConnection.defaultTimeout) async throws(BlueZError) {
        _ = try await invoke("Pair", operation: "Pair \(label)", timeout: timeout)
    }

    /// Marks the device trusted, so bluetoothd accepts its reconnections.
    public func setTrusted(_ trusted: Bool) async throws(BlueZError) {
        try await setProperty("Trusted", .boolean(trusted), operation: "Trust \(label)")
    }

    /// Waits until services are resolved (after `connect`), or `timeout` passes.
    public func waitForServicesResolved(timeout: Duration) async -> Bool {
        let path = path
        return await client.wait(timeout: timeout) { client in
            client.property("ServicesResolved", of: BlueZName.device, at: path)?.bool == true
        }
    }

    /// The characteristic with `uuid`, waiting up to `timeout` for it to be exported: bluez 5.66
    /// can report `ServicesResolved` seconds before the GATT objects appear on the bus.
    public func waitForCharacteristic(_ uuid: String, timeout: Duration) async -> GattCharacteristic? {
        let device = self
        _ = await client.wait(timeout: timeout) { client in client.characteristic(uuid, of: device) != nil }
        return await characteristic(uuid)
    }

    /// The characteristic with `uuid` (e.g. `00002a37-…`) on this device.
    public func characteristic(_ uuid: String) async -> GattCharacteristic? {
        await client.characteristic(uuid, of: self)
    }
}

extension String {
    /// `dev_F0_1D_2E_3C_4B_5A` → `dev F0:1D:2E:3C:4B:5A`, for messages.
    fileprivate func replacingUnderscores() -> String {
        guard hasPrefix("dev_") else { return self }
        return "device " + dropFirst(4).split(separator: "_").joined(separator: ":")
    }
}
