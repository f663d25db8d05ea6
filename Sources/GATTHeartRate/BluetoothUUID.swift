/// A Bluetooth attribute UUID, held in its full 128-bit form.
///
/// BlueZ reports UUIDs as lower-case 128-bit strings (`0000180d-0000-1000-8000-00805f9b34fb`),
/// while the Bluetooth SIG assigns 16-bit numbers (`0x180D`). Comparing the two spellings by
/// string is a classic bug; this type makes them the same value.
public struct BluetoothUUID: Hashable, Sendable, CustomStringConvertible {
    /// The 16 bytes, most significant first, as the canonical string shows them.
    public let bytes: [UInt8]

    /// The Bluetooth Base UUID `00000000-0000-1000-8000-00805F9B34FB` that 16-bit numbers extend.
    static let base: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
        0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB,
    ]

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The UUID of a SIG-assigned 16-bit number, e.g. `BluetoothUUID(0x180D)`.
    public init(_ assigned: UInt16) {
        var bytes = Self.base
        bytes[2] = UInt8(assigned >> 8)
        bytes[3] = UInt8(assigned & 0xFF)
        self.init(bytes: bytes)
    }

    /// Parses `180d`, `0x180D`, or the full 36-character form as BlueZ writes it.
    /// Returns `nil` for anything else, so callers can report the text they were given.
    public init?(_ text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        if digits.count == 4, let assigned = UInt16(digits, radix: 16) {
            self.init(assigned)
            return
        }
        let groups = digits.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
        let hex = groups.joined()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index ..< next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes: bytes)
    }

    /// The 16-bit assigned number when this UUID lies on the Bluetooth Base UUID, else `nil`.
    public var assignedNumber: UInt16? {
        guard bytes[0] == 0, bytes[1] == 0, bytes[4...] == Self.base[4...] else { return nil }
        return UInt16(bytes[2]) << 8 | UInt16(bytes[3])
    }

    /// The lower-case 36-character form that BlueZ uses in `UUID` properties and filters.
    public var uuidString: String {
        let hex = bytes.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 0x10 ? "0" + digits : digits
        }
        return [0 ..< 4, 4 ..< 6, 6 ..< 8, 8 ..< 10, 10 ..< 16]
            .map { hex[$0].joined() }
            .joined(separator: "-")
    }

    /// `0x180D` for assigned numbers (how the specifications name them), the full form otherwise.
    public var description: String {
        guard let assigned = assignedNumber else { return uuidString }
        let digits = String(assigned, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
