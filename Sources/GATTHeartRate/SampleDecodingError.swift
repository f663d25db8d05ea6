/// Why stored bytes are not a heart-rate sample in the compact binary format.
///
/// The bytes come from a file that may be damaged or written by another build, so every failure
/// is an ordinary, typed result naming the field and the offset, never a trap.
package struct SampleDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    package enum Kind: String, Sendable, CaseIterable {
        /// The first byte names a format this build does not know (a JSON sample starts with `{`).
        case unknownFormat = "unknown-format"
        /// The bytes ended before the named field was complete.
        case truncated
        /// Bytes follow the last field.
        case trailingBytes = "trailing-bytes"
        /// The flags byte has a bit set that no field uses.
        case reservedFlags = "reserved-flags"
        /// A text field is not valid UTF-8.
        case invalidUTF8 = "invalid-utf8"
        /// The embedded 0x2A37 value does not decode, or is not in the form the encoder writes.
        case invalidMeasurement = "invalid-measurement"
        /// Format 2 (two-byte lengths) holds fields that all fit format 1, which is never written.
        case needlessWideForm = "needless-wide-form"
    }

    /// The fields of the format, in order; the raw value is the code's suffix.
    package enum Field: String, Sendable, CaseIterable {
        case format
        case sampleID = "sample-id"
        case sensor
        case flags
        case wallClock = "wall-clock"
        case monotonicTime = "monotonic-time"
        case bootID = "boot-id"
        case patientID = "patient-id"
        case measurement

        /// The field's name in a sentence.
        package var name: String {
            rawValue.replacing("-", with: " ")
        }
    }

    /// What went wrong.
    package let kind: Kind
    /// The field that failed.
    package let field: Field
    /// Where the field starts in the bytes.
    package let offset: Int
    /// The length of the whole byte string.
    package let length: Int
    /// The specifics: how many bytes were missing, which format byte, what the 0x2A37 decoder said.
    package let detail: String

    /// A stable, specific code such as `sample.truncated-boot-id` or `sample.unknown-format`, for
    /// scripts and logs.
    package var code: String {
        switch kind {
        case .unknownFormat, .trailingBytes, .reservedFlags, .invalidMeasurement, .needlessWideForm: "sample.\(kind.rawValue)"
        case .truncated, .invalidUTF8: "sample.\(kind.rawValue)-\(field.rawValue)"
        }
    }

    /// One sentence for an operator.
    package var description: String {
        "\(length)-byte stored sample: \(kind.rawValue.replacing("-", with: " ")) at offset \(offset) (\(field.name)): \(detail)"
    }
}
