/// The gateway's one JSON writer: text appended straight into a byte buffer, keys in the order
/// they are written.
///
/// Three callers, three escaping rules (`Escaping`):
/// - the upload's hot path writes Observations byte-for-byte as `JSONEncoder` with
///   `[.sortedKeys, .withoutEscapingSlashes]` would (the tests check it on random values): a
///   retry must send identical bytes, and JSONEncoder costs tens of microseconds per
///   Observation (reflection over `Codable`, boxed containers, key sorting);
/// - the OMH payload inside it, ASCII only;
/// - what a person may see in a terminal (`status --json`, `queue export`, log values):
///   also escaping what JSON allows raw but a terminal (or `journalctl`) would act on.
package struct JSONWriter {
    /// Which characters a string value escapes beyond what JSON requires.
    package enum Escaping: Sendable {
        /// Exactly what `JSONEncoder` escapes: `"`, `\` and the C0 controls.
        case likeJSONEncoder
        /// Also every non-ASCII character, as `\uXXXX` (a surrogate pair above U+FFFF), because
        /// JHE decodes `valueAttachment.data` with `base64decode(data).decode("ascii")` and
        /// answers 400 to any byte above 0x7F.
        case asciiOnly
        /// Also DEL, the C1 controls and the bidi overrides, which JSON allows raw but a
        /// terminal showing the line would act on.
        case terminalSafe
    }

    /// The text so far.
    package private(set) var bytes: [UInt8] = []
    private let escaping: Escaping
    /// Whether the next key or element needs a comma before it.
    private var afterValue = false

    /// An empty buffer writing strings with `escaping`.
    package init(escaping: Escaping = .likeJSONEncoder, capacity: Int = 512) {
        self.escaping = escaping
        bytes.reserveCapacity(capacity)
    }

    /// The text so far, as a `String`.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Opens an object; keys follow in the order the output format fixes.
    package mutating func beginObject() {
        open(UInt8(ascii: "{"))
    }

    /// Closes the innermost object.
    package mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    /// Opens an array; each element is written with the value writers.
    package mutating func beginArray() {
        open(UInt8(ascii: "["))
    }

    /// Closes the innermost array.
    package mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    /// Writes `"name":` for a key known at compile time (written as is: it needs no escaping);
    /// the value follows with one of the value writers.
    package mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        afterValue = false
    }

    /// Writes `"name":` for a key made at run time, escaped like a string value.
    package mutating func escapedKey(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        afterValue = false
    }

    /// Writes a string value, escaped by this writer's `Escaping`.
    package mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        switch escaping {
        case _ where appendPlain(value): break
        case .likeJSONEncoder:
            for byte in value.utf8 { appendEscaped(byte) }
        case .asciiOnly:
            for scalar in value.unicodeScalars {
                if scalar.isASCII {
                    appendEscaped(UInt8(scalar.value))
                } else {
                    for unit in scalar.utf16 { appendUnicodeEscape(unit) }
                }
            }
        case .terminalSafe:
            for scalar in value.unicodeScalars {
                if scalar.isASCII {
                    scalar.value == 0x7F ? appendUnicodeEscape(0x7F) : appendEscaped(UInt8(scalar.value))
                } else if (0x80 ... 0x9F).contains(scalar.value) || TerminalText.isBidiOverride(scalar.value) {
                    appendUnicodeEscape(UInt16(scalar.value))
                } else {
                    bytes.append(contentsOf: scalar.utf8)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
        afterValue = true
    }

    /// Writes the base64 of `bytes` as a string value: base64 needs no escaping in any of the
    /// three modes, so it goes straight into the buffer.
    package mutating func base64String(_ bytes: [UInt8]) {
        separate()
        self.bytes.append(UInt8(ascii: "\""))
        ByteText.appendBase64(of: bytes, to: &self.bytes)
        self.bytes.append(UInt8(ascii: "\""))
        afterValue = true
    }

    /// Writes a finite number as `JSONEncoder` does: integral values without `.0`. A whole
    /// number below 10¹⁵ (a heart rate) is written as an integer, which is the same text
    /// without formatting a `Double`.
    package mutating func number(_ value: Double) throws(NonFiniteNumberError) {
        guard value.isFinite else { throw NonFiniteNumberError(value: value) }
        if value.magnitude < 1e15, value.rounded(.towardZero) == value, value != 0 || value.sign == .plus {
            integer(Int(value))
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        raw(text)
    }

    /// Writes an integer, as `JSONEncoder` does (decimal digits, no exponent).
    package mutating func integer(_ value: some BinaryInteger) {
        guard let value = Int(exactly: value) else { return raw(String(value)) }
        separate()
        ByteText.appendDecimal(value, to: &bytes)
        afterValue = true
    }

    /// Writes `true` or `false`.
    package mutating func boolean(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    /// Writes `null`.
    package mutating func null() {
        raw("null")
    }

    /// Writes `json`, text that is already a JSON value (a number formatted exactly, an object
    /// written by another writer), as it is.
    package mutating func raw(_ json: String) {
        separate()
        bytes.append(contentsOf: json.utf8)
        afterValue = true
    }

    /// `text` as a terminal-safe JSON string literal: what the configuration printer writes as
    /// a TOML basic string (TOML takes JSON's escapes and needs DEL escaped) and log values use.
    package static func quoted(_ text: String) -> String {
        var writer = JSONWriter(escaping: .terminalSafe, capacity: text.utf8.count + 2)
        writer.string(text)
        return writer.text
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

    /// Appends `value` in one copy if every escaping writes it as it is (printable ASCII other
    /// than a quote or a backslash), as identifiers, times and base64 are; false otherwise.
    private mutating func appendPlain(_ value: String) -> Bool {
        value.utf8.withContiguousStorageIfAvailable { utf8 in
            let plain = utf8.allSatisfy { byte in
                byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
            }
            if plain { bytes.append(contentsOf: utf8) }
            return plain
        } ?? false
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
            bytes.append(ByteText.lowerHexDigit(UInt8(truncatingIfNeeded: unit >> UInt16(shift))))
        }
    }
}

/// A finite number was asked for and the value is NaN or infinite, which JSON cannot carry.
package struct NonFiniteNumberError: Error, Sendable {
    /// The value refused.
    package let value: Double
}
