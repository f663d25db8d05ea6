/// Commands written to the Heart Rate Control Point (0x2A39).
///
/// The characteristic exists only on straps that report energy expended; writing anything
/// other than a defined command gets ATT error `valueNotSupported`.
public enum HeartRateControlPointCommand: UInt8, Sendable, CaseIterable {
    /// Sets the strap's energy-expended counter back to zero.
    case resetEnergyExpended = 0x01

    /// The bytes to write.
    public var encoded: [UInt8] { [rawValue] }

    /// ATT error "Control Point Value Not Supported", the strap's answer to an unknown command.
    public static let valueNotSupported: UInt8 = 0x80
}
