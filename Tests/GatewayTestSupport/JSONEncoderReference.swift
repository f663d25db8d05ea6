import Foundation

/// What the gateway's hand-written JSON is compared with: `JSONEncoder` as the upload used it
/// (`[.sortedKeys, .withoutEscapingSlashes]`), random strings full of characters JSON escapes,
/// and the ASCII-only escaping the OMH payload gets.
package enum JSONEncoderReference {
    /// `JSONEncoder` with the upload's options.
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    /// Characters JSON escapes, the ones it need not, and some outside the Basic Multilingual Plane.
    package static let awkward: [Unicode.Scalar] =
        (0 ..< 0x20).map { Unicode.Scalar(UInt8($0)) }
        + ["\"", "\\", "/", "\u{7F}", "\u{80}", "\u{9F}", "é", "–", "\u{2028}", "\u{202E}", "\u{FEFF}", "♥", "𝄞", "😀", "a", "Z", "0", " "]

    /// Up to 24 scalars, half from `awkward`, half anywhere in Unicode.
    package static func randomString(_ random: inout SplitMix64) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0 ..< Int.random(in: 0 ... 24, using: &random) {
            if Bool.random(using: &random) {
                text.append(awkward.randomElement(using: &random)!)
            } else if let scalar = Unicode.Scalar(UInt32.random(in: 0 ... 0x10FFFF, using: &random)) {
                text.append(scalar)
            }
        }
        return String(text)
    }

    /// What the encoder did to JSONEncoder's output before: each non-ASCII character as `\uXXXX`.
    package static func asciiEscaped(_ utf8JSON: Data) -> [UInt8] {
        var output: [UInt8] = []
        for scalar in String(decoding: utf8JSON, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                output.append(UInt8(scalar.value))
            } else {
                for unit in String(scalar).utf16 {
                    let digits = String(unit, radix: 16)
                    output += Array(("\\u" + String(repeating: "0", count: 4 - digits.count) + digits).utf8)
                }
            }
        }
        return output
    }
}
