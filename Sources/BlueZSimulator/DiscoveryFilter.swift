import BlueZ
import DBus
import GATTHeartRate

/// A client's `SetDiscoveryFilter` settings, validated as bluetoothd validates them.
struct DiscoveryFilter: Sendable {
    var uuids: [BluetoothUUID] = []
    var transport = "auto"
    var rssi: Int?
    var pattern: String?

    /// Parses the `a{sv}` argument; unknown keys or wrong types are `InvalidArguments`.
    init(_ value: DBusValue) throws(DBusError) {
        guard let entries = value.stringDictionary else { throw BlueZReply.invalidArguments }
        for (key, raw) in entries {
            let value = raw.unwrapped
            switch key {
            case "UUIDs":
                guard let texts = value.strings, value.elements?.count == texts.count else { throw BlueZReply.invalidArguments }
                uuids = try texts.map { text throws(DBusError) in
                    guard let uuid = BluetoothUUID(text) else { throw BlueZReply.invalidArguments }
                    return uuid
                }
            case "Transport":
                guard let text = value.string, ["auto", "le", "bredr"].contains(text) else { throw BlueZReply.invalidArguments }
                transport = text
            case "RSSI":
                guard case .int16(let threshold) = value else { throw BlueZReply.invalidArguments }
                rssi = Int(threshold)
            case "Pattern":
                guard let text = value.string else { throw BlueZReply.invalidArguments }
                pattern = text
            case "DuplicateData", "Discoverable":
                guard value.bool != nil else { throw BlueZReply.invalidArguments }
            case "Pathloss":
                guard value.integer != nil else { throw BlueZReply.invalidArguments }
            default:
                throw BlueZReply.invalidArguments
            }
        }
    }

    /// No filter: every device.
    init() {}

    /// Whether discovery under this filter reports `strap`.
    func matches(_ strap: SimulatedStrap, rssi heard: Int16) -> Bool {
        if transport == "bredr" { return false }
        if let rssi, Int(heard) < rssi { return false }
        if let pattern, !pattern.isEmpty,
            !strap.address.description.hasPrefix(pattern.uppercased()) && !strap.name.hasPrefix(pattern)
        {
            return false
        }
        return uuids.isEmpty || uuids.contains { BluetoothdSimulator.advertisedServices.contains($0) }
    }
}
