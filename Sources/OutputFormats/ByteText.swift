#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Text forms of bytes and integers (hexadecimal, base64, decimal), written straight into their
/// buffers.
///
/// The upload writes three of them per sample: the sample's id twice as a lower-case UUID and the
/// OMH payload as base64. Foundation formats `uuidString` through `snprintf` (and `lowercased()`
/// copies it again), and `base64EncodedString` needs a `Data` copy first and makes a string that
/// the Bundle's writer would then check byte by byte: together several times the work of the
/// rest of an Observation.
package enum ByteText {
    /// RFC 4648 §4 base64 of `bytes`, with padding: what `Data.base64EncodedString()` writes.
    package static func base64(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        appendBase64(of: bytes, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the base64 of `bytes` to `output`, with padding: how the upload writes each OMH
    /// payload straight into its Bundle, with no string made and checked in between.
    package static func appendBase64(of bytes: [UInt8], to output: inout [UInt8]) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: (bytes.count + 2) / 3 * 4))
        output.withUnsafeMutableBufferPointer { text in
            bytes.withUnsafeBufferPointer { input in
                var (read, written) = (0, start)
                while read < input.count {
                    let remaining = input.count - read
                    let group =
                        UInt32(input[read]) << 16
                        | (remaining > 1 ? UInt32(input[read + 1]) << 8 : 0)
                        | (remaining > 2 ? UInt32(input[read + 2]) : 0)
                    text[written] = base64Symbol(group >> 18)
                    text[written + 1] = base64Symbol(group >> 12)
                    text[written + 2] = remaining > 1 ? base64Symbol(group >> 6) : UInt8(ascii: "=")
                    text[written + 3] = remaining > 2 ? base64Symbol(group) : UInt8(ascii: "=")
                    read += 3
                    written += 4
                }
            }
        }
    }

    /// Appends `value` in decimal, a minus sign first when negative, padded with zeros to at
    /// least `minimumDigits` digits: the JSON writer's integers and RFC 3339's fields.
    package static func appendDecimal(_ value: Int, minimumDigits: Int = 1, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = output.count
        repeat {
            output.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        while output.count - start < minimumDigits { output.append(UInt8(ascii: "0")) }
        output[start...].reverse()
    }

    /// The lower-case hexadecimal digit of `value`'s low four bits.
    static func lowerHexDigit(_ value: UInt8) -> UInt8 {
        let nibble = value & 0x0F
        return nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }

    /// The base64 symbol of `value`'s low six bits.
    private static func base64Symbol(_ value: UInt32) -> UInt8 {
        let index = UInt8(value & 0x3F)
        switch index {
        case 0 ..< 26: return UInt8(ascii: "A") + index
        case 26 ..< 52: return UInt8(ascii: "a") - 26 + index
        case 52 ..< 62: return index - 52 + UInt8(ascii: "0")
        case 62: return UInt8(ascii: "+")
        default: return UInt8(ascii: "/")
        }
    }
}

extension UUID {
    /// `uuidString` in lower case (`6f1c2d3e-8a4b-5c6d-9e0f-1a2b3c4d5e6f`), as the OMH headers,
    /// the Observations' identifiers and the queue's exports write sample ids.
    package var lowercasedText: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var written = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[written] = UInt8(ascii: "-")
                        written += 1
                    }
                    text[written] = ByteText.lowerHexDigit(byte >> 4)
                    text[written + 1] = ByteText.lowerHexDigit(byte)
                    written += 2
                }
                return written
            }
        }
    }
}
