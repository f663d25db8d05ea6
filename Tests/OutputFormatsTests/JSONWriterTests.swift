import Foundation
import GatewayTestSupport
import OutputFormats
import Testing

/// The writer's strings and numbers are byte for byte what `JSONEncoder` writes
/// (`[.sortedKeys, .withoutEscapingSlashes]`; in ASCII-only mode with every non-ASCII character
/// escaped afterwards), and its terminal-safe mode escapes what a terminal would act on.
@Suite("JSON writer")
struct JSONWriterTests {
    @Test("strings with every control character, quotes, slashes and non-BMP characters are escaped as JSONEncoder escapes them")
    func stringsMatchJSONEncoder() throws {
        var random = SplitMix64(seed: 0x5EED_0016)
        for _ in 0 ..< 2_000 {
            let text = JSONEncoderReference.randomString(&random)
            let expected = try JSONEncoderReference.encoder.encode([text])
            var plain = JSONWriter()
            plain.beginArray()
            plain.string(text)
            plain.endArray()
            #expect(plain.bytes == Array(expected), "\(text.debugDescription)")
            var ascii = JSONWriter(escaping: .asciiOnly)
            ascii.beginArray()
            ascii.string(text)
            ascii.endArray()
            #expect(ascii.bytes == JSONEncoderReference.asciiEscaped(expected), "\(text.debugDescription)")
            #expect(ascii.bytes.allSatisfy { $0 < 0x80 })
        }
    }

    @Test("rates, window statistics, RR milliseconds and arbitrary finite doubles print as JSONEncoder prints them")
    func numbersMatchJSONEncoder() throws {
        var random = SplitMix64(seed: 0x5EED_0017)
        var values: [Double] = [0, -0.0, -72, 1e21, 1e-7, 1e15, 1e15 - 1, -(1e15 - 1), 3e15, 1e16, 2.5e-5, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        values += (0 ... 65_535).filter { $0 % 97 == 0 || $0 < 300 }.map(Double.init)
        values += (0 ..< 2_000).map { _ in Double(UInt16.random(in: 1 ... UInt16.max, using: &random)) * 1000 / 1024 }
        values += (0 ..< 2_000).map { _ in Double(UInt16.random(in: 30 ... 230, using: &random)) / Double(Int.random(in: 1 ... 60, using: &random)) }
        values += (0 ..< 2_000).compactMap { _ in
            let value = Double(bitPattern: UInt64.random(in: 0 ... UInt64.max, using: &random))
            return value.isFinite ? value : nil
        }
        for value in values {
            var json = JSONWriter()
            json.beginArray()
            try json.number(value)
            json.endArray()
            #expect(json.bytes == Array(try JSONEncoderReference.encoder.encode([value])), "\(value)")
        }
    }

    @Test("a non-finite number is refused rather than written as invalid JSON")
    func nonFiniteNumbersAreRefused() {
        for value in [Double.nan, .infinity, -.infinity] {
            var json = JSONWriter()
            let error = #expect(throws: NonFiniteNumberError.self) { try json.number(value) }
            #expect(error.map { $0.value.isNaN || $0.value.isInfinite } == true)
            #expect(json.bytes.isEmpty)
        }
    }

    @Test("terminal-safe strings and keys escape DEL, the C1 controls and bidi overrides, and keep other non-ASCII characters")
    func terminalSafeEscapes() {
        var json = JSONWriter(escaping: .terminalSafe)
        json.beginObject()
        json.escapedKey("k\u{202E}")
        json.string("a\u{7F}b\u{9B}c\u{2066}d é ♥ \u{1B}[2J")
        json.endObject()
        #expect(json.text == #"{"k\u202e":"a\u007fb\u009bc\u2066d é ♥ \u001b[2J"}"#)
        #expect(JSONWriter.quoted("\u{85}x") == #""\u0085x""#)
    }
}
