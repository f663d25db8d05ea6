/// Why a sample cannot be written in the compact binary format: a variable-length field is
/// longer than its one-byte length prefix allows (255 bytes).
///
/// Real samples never come near it (patient ids are short, and a strap's 0x2A37 value fits one
/// notification: 20 bytes at the default ATT MTU), so meeting it means the input is wrong.
public struct SampleEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field that is too long.
    public let field: SampleDecodingError.Field
    /// How many bytes it would need.
    public let byteCount: Int

    /// A stable code such as `too-long-patient-id`.
    public var code: String { "too-long-\(field.rawValue)" }

    /// One sentence for an operator.
    public var description: String {
        "cannot store the heart-rate sample: its \(field.name) is \(byteCount) bytes long; the stored format allows at most 255"
    }
}
