/// SHA-1 (FIPS 180-4), for RFC 4122 version-5 UUIDs only: naming derived data points needs
/// the standard's hash, not its security, and a whole crypto library for 16 bytes of it would
/// cost the shipped binary megabytes.
struct SHA1 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// Adds `bytes` to the message.
    mutating func update<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes {
            pending.append(byte)
            length &+= 1
            if pending.count == 64 {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The 20-byte digest of everything added.
    consuming func finalize() -> [UInt8] {
        let bitLength = length &* 8
        update([0x80])
        while pending.count != 56 { update([0]) }
        update((0 ..< 8).reversed().map { UInt8(truncatingIfNeeded: bitLength >> ($0 * 8)) })
        let words = [state.0, state.1, state.2, state.3, state.4]
        return words.flatMap { word in (0 ..< 4).reversed().map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }
    }

    private mutating func compress(_ block: [UInt8]) {
        var w = [UInt32](repeating: 0, count: 80)
        for t in 0 ..< 16 {
            w[t] = block[t * 4 ..< t * 4 + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        for t in 16 ..< 80 {
            w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotatedLeft(1)
        }
        var (a, b, c, d, e) = state
        for t in 0 ..< 80 {
            let (f, k): (UInt32, UInt32) =
                switch t {
                case 0 ..< 20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20 ..< 40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40 ..< 60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
            let temp = a.rotatedLeft(5) &+ f &+ e &+ k &+ w[t]
            (e, d, c, b, a) = (d, c, b.rotatedLeft(30), a, temp)
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }
}

private extension UInt32 {
    func rotatedLeft(_ count: UInt32) -> UInt32 { self << count | self >> (32 - count) }
}
