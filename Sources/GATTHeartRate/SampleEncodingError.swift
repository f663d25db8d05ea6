/// Why a sample cannot be written in the compact binary format: a variable-length field is
/// longer than the widest length prefix allows (65,535 bytes).
///
/// No real sample comes near it (an ATT value is at most 512 bytes, and patient ids are short),
/// so meeting it means the input is wrong; the sample is refused alone.
package struct SampleEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field that is too long.
    package let field: SampleDecodingError.Field
    /// How many bytes it would need.
    package let byteCount: Int
    /// The most the format's length prefix can say.
    package let limit: Int

    /// A stable code such as `sample.too-long-patient-id`.
    package var code: String { "sample.too-long-\(field.rawValue)" }

    /// One sentence for an operator.
    package var description: String {
        "cannot store the heart-rate sample: its \(field.name) is \(byteCount) bytes long; the stored format allows at most \(limit)"
    }
}
