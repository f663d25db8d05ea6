/// A Bluetooth device address (`F0:1D:2E:3C:4B:5A`), the key a strap is bound and stored by.
package struct BluetoothAddress: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The six bytes, most significant first, as written.
    package let bytes: [UInt8]

    /// An address from its six bytes; `nil` for any other count.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.bytes = bytes
    }

    /// Parses `F0:1D:2E:3C:4B:5A` in either case, with `:`, `-` or `_` between the bytes
    /// (the last is how BlueZ object paths spell it: `dev_F0_1D_2E_3C_4B_5A`).
    package init?(_ text: some StringProtocol) {
        let parts = text.split(omittingEmptySubsequences: false) { ":-_".contains($0) }
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 }) else { return nil }
        let bytes = parts.compactMap { UInt8($0, radix: 16) }
        self.init(bytes: bytes)
    }

    /// Upper case with colons, as BlueZ's `Address` property shows it. Written digit by digit:
    /// it is the queue's stream key, made for every sample stored.
    package var description: String {
        String(unsafeUninitializedCapacity: 17) { text in
            for (index, byte) in bytes.enumerated() {
                if index > 0 { text[3 * index - 1] = UInt8(ascii: ":") }
                text[3 * index] = Self.upperHexDigit(byte >> 4)
                text[3 * index + 1] = Self.upperHexDigit(byte & 0x0F)
            }
            return 17
        }
    }

    private static func upperHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") - 10 + nibble
    }

    /// Byte order, most significant first: the order `F0:1D:…` text sorts in, for stable listings.
    package static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    /// Decodes the text form (`F0:1D:2E:3C:4B:5A`, any separator `init?(_:)` accepts); other
    /// text throws `DecodingError.dataCorrupted`.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let address = BluetoothAddress(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a Bluetooth address like F0:1D:2E:3C:4B:5A")
        }
        self = address
    }

    /// Encodes the upper-case, colon-separated text (`description`), not the bytes.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
