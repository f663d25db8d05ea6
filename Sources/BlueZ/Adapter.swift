import DBus

/// A Bluetooth adapter (`org.bluez.Adapter1`, `/org/bluez/hci0`).
package struct Adapter: BlueZObject {
    /// The interface `invoke`, `setProperty` and `property` address on this object.
    package static let interface = BlueZName.adapter
    /// The mirror this handle was looked up in; calls go out over its connection.
    package let client: BlueZClient
    /// bluetoothd's object path: the handle's identity (handles at the same path are equal).
    package let path: DBusObjectPath

    /// The adapter's name (`hci0`).
    package var name: String { path.lastElement }

    /// Whether the radio is on.
    package var isPowered: Bool {
        get async { await property("Powered")?.bool ?? false }
    }

    /// Whether discovery is running (started by anyone).
    package var isDiscovering: Bool {
        get async { await property("Discovering")?.bool ?? false }
    }

    /// Turns the radio on or off.
    package func setPowered(_ on: Bool) async throws(BlueZError) {
        try await setProperty("Powered", .boolean(on), operation: "Power \(on ? "on" : "off") \(name)")
    }

    /// Limits discovery to LE devices advertising `serviceUUIDs` (all LE devices when empty).
    package func setDiscoveryFilter(serviceUUIDs: [String]) async throws(BlueZError) {
        var filter: [String: DBusValue] = ["Transport": .string("le")]
        if !serviceUUIDs.isEmpty { filter["UUIDs"] = .strings(serviceUUIDs) }
        _ = try await invoke("SetDiscoveryFilter", [.properties(filter)], operation: "Set the discovery filter on \(name)")
    }

    /// Starts discovery; devices appear in the mirror as they are found.
    package func startDiscovery() async throws(BlueZError) {
        _ = try await invoke("StartDiscovery", operation: "Start discovery on \(name)")
    }

    /// Stops the discovery this client started.
    package func stopDiscovery() async throws(BlueZError) {
        _ = try await invoke("StopDiscovery", operation: "Stop discovery on \(name)")
    }

    /// Makes bluetoothd forget `device` (bond, cache and object).
    package func removeDevice(_ device: Device) async throws(BlueZError) {
        _ = try await invoke("RemoveDevice", [.objectPath(device.path)], operation: "Remove \(device.path.lastElement) from \(name)")
    }
}
