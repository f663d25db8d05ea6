/// JSON text written straight into a byte buffer, for the upload's hot path (and the daemon's
/// status report, rewritten while it is otherwise idle).
///
/// `JSONEncoder` costs tens of microseconds per Observation (reflection over `Codable`, boxed
/// containers, key sorting); the gateway encodes every sample once per upload attempt, so the
/// Observation types write themselves instead (`JSONWritable`). The output is byte-for-byte what
/// `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` gives, which the tests check on
/// random values: retries must send identical bytes, and a change of encoder must not change
/// them either.
public struct JSONBytes {
    /// The text so far.
    public private(set) var bytes: [UInt8] = []
    /// Writes every non-ASCII character as `\uXXXX` (same meaning inside a JSON string), because
    /// JHE decodes `valueAttachment.data` with `base64decode(data).decode("ascii")` and answers 400
    /// to any byte above 0x7F.
    private let asciiOnly: Bool
    /// Whether the next key or element needs a comma before it.
    private var afterValue = false

    /// An empty buffer, ASCII-only for an OMH payload.
    public init(asciiOnly: Bool = false, capacity: Int = 512) {
        self.asciiOnly = asciiOnly
        bytes.reserveCapacity(capacity)
    }

    /// Opens an object; keys must then come in the byte order `.sortedKeys` gives.
    public mutating func beginObject() {
        open(UInt8(ascii: "{"))
    }

    /// Closes the innermost object.
    public mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    /// Opens an array; each element is written with the value writers.
    public mutating func beginArray() {
        open(UInt8(ascii: "["))
    }

    /// Closes the innermost array.
    public mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    /// Writes `"name":`; the value follows with one of the value writers.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        afterValue = false
    }

    /// Writes a string value, escaped as `JSONEncoder` escapes it.
    /// In `asciiOnly` mode a character above U+FFFF becomes a surrogate pair of escapes.
    public mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        if asciiOnly {
            for scalar in value.unicodeScalars {
                if scalar.isASCII {
                    appendEscaped(UInt8(scalar.value))
                } else {
                    for unit in scalar.utf16 { appendUnicodeEscape(unit) }
                }
            }
        } else {
            for byte in value.utf8 { appendEscaped(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
        afterValue = true
    }

    /// Writes a finite number as `JSONEncoder` does: integral values without `.0`.
    public mutating func number(_ value: Double) throws(UplinkError) {
        guard value.isFinite else {
            throw UplinkError(
                .unencodableValue,
                "A sample gave a non-finite number (\(value)), which JSON cannot carry; the sample stays in the queue. Please report this as a bug, with the sample from `edge-gateway queue export`."
            )
        }
        separate()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        afterValue = true
    }

    /// Writes an integer, as `JSONEncoder` does (decimal digits, no exponent).
    public mutating func integer(_ value: some BinaryInteger) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        afterValue = true
    }

    /// Writes `true` or `false`.
    public mutating func boolean(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        afterValue = true
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        afterValue = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        afterValue = true
    }

    private mutating func separate() {
        if afterValue { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
        case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0 ..< 0x20: appendUnicodeEscape(UInt16(byte))
        default: bytes.append(byte)
        }
    }

    private mutating func appendUnicodeEscape(_ unit: UInt16) {
        bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(Self.hexDigits[Int(unit >> UInt16(shift)) & 0xF])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
