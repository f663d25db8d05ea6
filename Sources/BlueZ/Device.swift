import DBus

/// A remote device (`org.bluez.Device1`), e.g. a heart-rate strap.
package struct Device: BlueZObject {
    /// The interface `invoke`, `setProperty` and `property` address on this object.
    package static let interface = BlueZName.device
    /// The mirror this handle was looked up in; calls go out over its connection.
    package let client: BlueZClient
    /// bluetoothd's object path: the handle's identity (handles at the same path are equal).
    package let path: DBusObjectPath

    /// A snapshot of what bluetoothd reports about the device.
    package struct Info: Sendable, Equatable {
        /// The Bluetooth address as bluetoothd reports it (`F0:1D:2E:3C:4B:5A`); empty if missing.
        package var address: String
        /// The name the device advertises (`Name`), `nil` until bluetoothd has seen one.
        package var name: String?
        /// bluetoothd's display name (`Alias`): set by a user, else derived from name or address.
        package var alias: String?
        /// Signal strength of the last advertisement, in dBm; `nil` when bluetoothd has none
        /// (it reports `RSSI` from advertisements seen during discovery).
        package var rssi: Int?
        /// The service UUIDs advertised or resolved (`UUIDs`), in BlueZ's lower-case 128-bit form.
        package var serviceUUIDs: [String]
        /// Whether bluetoothd has a link to the device now (`Connected`).
        package var isConnected: Bool
        /// Whether GATT discovery has finished (`ServicesResolved`); the characteristics may still
        /// appear later, so use `waitForCharacteristic`.
        package var areServicesResolved: Bool
        /// Whether pairing has completed (`Paired`).
        package var isPaired: Bool
        /// Whether the pairing keys are stored (`Bonded`), so the pairing survives reconnections.
        package var isBonded: Bool
        /// Whether bluetoothd lets the device reconnect by itself (`Trusted`, see `setTrusted`).
        package var isTrusted: Bool
        /// Battery level in percent (0–100) from `org.bluez.Battery1`; `nil` when the device has no
        /// Battery Service (or bluetoothd has not exported it yet).
        package var batteryPercentage: Int?
    }

    /// The device's current properties, or `nil` when it is gone from the mirror.
    package var info: Info? {
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
    package func connect(timeout: Duration = DBusConnection.defaultTimeout) async throws(BlueZError) {
        _ = try await invoke("Connect", operation: "Connect \(label)", timeout: timeout)
    }

    /// Drops the link.
    package func disconnect() async throws(BlueZError) {
        _ = try await invoke("Disconnect", operation: "Disconnect \(label)")
    }

    /// Pairs (Just Works is confirmed by bluetoothd itself when the gateway initiates it).
    package func pair(timeout: Duration = DBusConnection.defaultTimeout) async throws(BlueZError) {
        _ = try await invoke("Pair", operation: "Pair \(label)", timeout: timeout)
    }

    /// Marks the device trusted, so bluetoothd accepts its reconnections.
    package func setTrusted(_ trusted: Bool) async throws(BlueZError) {
        try await setProperty("Trusted", .boolean(trusted), operation: "Trust \(label)")
    }

    /// Waits until services are resolved (after `connect`), or `timeout` passes.
    package func waitForServicesResolved(timeout: Duration) async -> Bool {
        let path = path
        return await client.wait(timeout: timeout) { client in
            client.property("ServicesResolved", of: BlueZName.device, at: path)?.bool == true
        }
    }

    /// The characteristic with `uuid`, waiting up to `timeout` for it to be exported: bluez 5.66
    /// can report `ServicesResolved` seconds before the GATT objects appear on the bus.
    package func waitForCharacteristic(_ uuid: String, timeout: Duration) async -> GattCharacteristic? {
        let device = self
        _ = await client.wait(timeout: timeout) { client in client.characteristic(uuid, of: device) != nil }
        return await characteristic(uuid)
    }

    /// The characteristic with `uuid` (e.g. `00002a37-…`) on this device.
    package func characteristic(_ uuid: String) async -> GattCharacteristic? {
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
