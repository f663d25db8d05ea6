import OutputFormats
/// Turns a frame as a technician pastes it into bytes.
///
/// btmon, gatttool, nRF Connect and bluetoothctl each print bytes differently: `104ed202c802`,
/// `10 4e d2 02 c8 02`, `10:4e:d2:02:c8:02`, `0x10 0x4e …`. All of these are one frame.
enum HexFrame {
    private static let separators: Set<Character> = [" ", "\t", ":", "-", ",", "."]

    /// The bytes of `text`; separators between bytes and `0x` prefixes are allowed.
    static func parse(_ text: String) throws(HexFrameError) -> [UInt8] {
        var digits: [Character] = []
        for token in text.split(whereSeparator: { separators.contains($0) }) {
            let hex = token.hasPrefix("0x") || token.hasPrefix("0X") ? token.dropFirst(2) : token[...]
            if let bad = hex.first(where: { !$0.isHexDigit }) {
                throw HexFrameError(message: "'\(bad)' in '\(text)' is not a hex digit (0-9, a-f)")
            }
            guard hex.count % 2 == 0 || token.count == text.count else {
                throw HexFrameError(message: "'\(token)' in '\(text)' has an odd number of hex digits: write each byte as two digits")
            }
            digits.append(contentsOf: hex)
        }
        guard digits.count % 2 == 0 else {
            throw HexFrameError(message: "'\(text)' has an odd number of hex digits (\(digits.count)): write each byte as two digits")
        }
        return stride(from: 0, to: digits.count, by: 2).map { index in
            UInt8(String(digits[index ... index + 1]), radix: 16)!
        }
    }

    /// Lower-case hex without separators, the canonical `hex` of JSON output.
    static func format(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 0x10 ? "0" + digits : digits
        }.joined()
    }
}

/// Why a text is not a frame; reported per frame.
struct HexFrameError: CodedError, Equatable {
    /// The one code.
    enum Code: String { case invalidHex = "frame.invalid-hex" }

    /// Always `frame.invalid-hex`.
    let code = Code.invalidHex
    /// Which token is not hex, and how to write a frame.
    let message: String
}
