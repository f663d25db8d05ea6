#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JSON text restricted to ASCII, because JHE decodes `valueAttachment.data` with
/// `base64decode(data).decode("ascii")` and answers 400 to any byte above 0x7F.
enum ASCIIJSON {
    /// Rewrites every non-ASCII character of UTF-8 JSON text as `\uXXXX` (a surrogate pair above
    /// U+FFFF). Non-ASCII can only occur inside JSON strings, where the escape means the same.
    static func escapingNonASCII(_ utf8JSON: Data) -> Data {
        guard utf8JSON.contains(where: { $0 >= 0x80 }) else { return utf8JSON }
        var output = Data()
        output.reserveCapacity(utf8JSON.count + 16)
        for scalar in String(decoding: utf8JSON, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                output.append(UInt8(scalar.value))
            } else {
                for unit in String(scalar).utf16 {
                    output.append(contentsOf: Array(hex(unit).utf8))
                }
            }
        }
        return output
    }

    private static func hex(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
