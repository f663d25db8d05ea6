import GATTHeartRate

/// The characteristics `decode` understands, named by their 16-bit UUID as a technician sees
/// them in btmon (`2a37`, `0x2A38` …).
package enum DecodableCharacteristic: String, CaseIterable, Sendable {
    case heartRateMeasurement = "2a37"
    case bodySensorLocation = "2a38"
    case batteryLevel = "2a19"

    /// The characteristic named by its UUID in any spelling btmon or a technician uses.
    package init?(argument: String) {
        guard let uuid = BluetoothUUID(argument),
            let match = Self.allCases.first(where: { $0.uuid == uuid })
        else { return nil }
        self = match
    }

    /// The characteristic's UUID.
    var uuid: BluetoothUUID {
        switch self {
        case .heartRateMeasurement: .heartRateMeasurement
        case .bodySensorLocation: .bodySensorLocation
        case .batteryLevel: .batteryLevel
        }
    }
}
