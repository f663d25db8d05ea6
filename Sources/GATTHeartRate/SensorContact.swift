/// What a strap says about skin contact (Heart Rate Measurement flags, bits 1–2).
///
/// The raw values are the stable names used in JSON output and stored records.
public enum SensorContact: String, Sendable, Codable, CaseIterable {
    /// The strap has no contact detection (flag bits `0b00` or `0b01`).
    case notSupported = "not-supported"
    /// Detection is supported and the strap is **not** on skin (`0b10`): readings are unreliable.
    case notDetected = "not-detected"
    /// Detection is supported and the strap is on skin (`0b11`).
    case detected

    /// Reads the two contact bits of a flags byte.
    init(flags: UInt8) {
        switch (flags >> 1) & 0b11 {
        case 0b10: self = .notDetected
        case 0b11: self = .detected
        default: self = .notSupported
        }
    }

    /// The two contact bits, in place, for a flags byte.
    var flagBits: UInt8 {
        switch self {
        case .notSupported: 0b000
        case .notDetected: 0b100
        case .detected: 0b110
        }
    }
}
