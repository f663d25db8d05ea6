/// CRC-32C (Castagnoli), the checksum the ingest journal puts on each commit so a torn or
/// damaged block is told from a whole one: the polynomial ext4 and iSCSI use, better than
/// CRC-32 at the short lengths of a commit.
enum CRC32C {
    private static let table: [UInt32] = (0 ..< 256).map { index in
        var crc = UInt32(index)
        for _ in 0 ..< 8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        return crc
    }

    /// The checksum of `bytes`, or of the bytes before them (whose checksum is `previous`)
    /// followed by them.
    static func checksum(_ bytes: some Sequence<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
        var crc = ~previous
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
