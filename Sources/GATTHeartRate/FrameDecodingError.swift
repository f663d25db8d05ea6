/// Why a characteristic value could not be decoded.
///
/// Values come from outside (a strap, a pasted hex string), so every failure is an ordinary,
/// typed result: it names the field, the offset and how many bytes were missing, and carries a
/// stable `code` that scripts and counters can key on.
public struct FrameDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: String, Sendable, CaseIterable {
        /// The value ended before the named field was complete.
        case truncated
        /// A field was complete but holds a value its specification forbids.
        case outOfRange = "out-of-range"
    }

    /// A field of a characteristic value; the raw value names it for an operator, with the
    /// flag bit that announced it.
    public enum Field: String, Sendable, CaseIterable {
        case flags = "flags byte"
        case heartRateUInt8 = "heart rate (uint8)"
        case heartRateUInt16 = "heart rate (uint16, flag bit 0 set)"
        case energyExpended = "energy expended (flag bit 3 set)"
        case rrInterval = "first RR interval (flag bit 4 set)"
        case bodySensorLocation = "body sensor location"
        case batteryLevel = "battery level"
    }

    /// What went wrong.
    public let kind: Kind
    /// The characteristic being decoded.
    public let characteristic: BluetoothUUID
    /// The field that failed.
    public let field: Field
    /// Where the field starts in the value.
    public let offset: Int
    /// For `.truncated`: how many more bytes the field needed. Zero otherwise.
    public let missingBytes: Int
    /// For `.outOfRange`: the offending value.
    public let value: Int?
    /// The length of the whole value, in bytes.
    public let valueLength: Int

    /// A truncation of `field`, which starts at `offset` and lacks `missingBytes` bytes.
    public static func truncated(
        _ characteristic: BluetoothUUID, field: Field, offset: Int, missingBytes: Int, valueLength: Int
    ) -> Self {
        Self(
            kind: .truncated, characteristic: characteristic, field: field,
            offset: offset, missingBytes: missingBytes, value: nil, valueLength: valueLength)
    }

    /// A complete field whose `value` the specification does not allow.
    public static func outOfRange(
        _ characteristic: BluetoothUUID, field: Field, offset: Int, value: Int, valueLength: Int
    ) -> Self {
        Self(
            kind: .outOfRange, characteristic: characteristic, field: field,
            offset: offset, missingBytes: 0, value: value, valueLength: valueLength)
    }

    /// A stable, specific code such as `frame.truncated-rr-interval` or
    /// `frame.out-of-range-battery-level`,
    /// for scripts, counters and the `code` key of JSON output.
    public var code: String {
        let fieldName =
            switch field {
            case .flags: "flags"
            case .heartRateUInt8, .heartRateUInt16: "heart-rate"
            case .energyExpended: "energy-expended"
            case .rrInterval: "rr-interval"
            case .bodySensorLocation: "body-sensor-location"
            case .batteryLevel: "battery-level"
            }
        return "frame.\(kind.rawValue)-\(fieldName)"
    }

    /// One sentence for an operator: which value, which field, what was wrong, by how much.
    public var description: String {
        let name = Self.characteristicName(characteristic)
        switch kind {
        case .truncated:
            return "\(name) truncated: \(Self.bytes(missingBytes)) missing for the \(field.rawValue) "
                + "at offset \(offset); the value has \(Self.bytes(valueLength))"
        case .outOfRange:
            let detail = field == .batteryLevel ? " (allowed: 0–100 %)" : ""
            return "\(name) out of range: the \(field.rawValue) at offset \(offset) is \(value ?? 0)\(detail)"
        }
    }

    private static func bytes(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }

    private static func characteristicName(_ uuid: BluetoothUUID) -> String {
        switch uuid {
        case .heartRateMeasurement: "Heart Rate Measurement (0x2A37)"
        case .bodySensorLocation: "Body Sensor Location (0x2A38)"
        case .batteryLevel: "Battery Level (0x2A19)"
        default: "characteristic \(uuid)"
        }
    }
}
