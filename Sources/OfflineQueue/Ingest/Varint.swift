/// LEB128 varints, the signed ones zig-zag coded, as the ingest journal stores numbers: a
/// sensor's stream id or a record's version in one byte, the time between two records of a
/// commit in three or four.
enum Varint {
    /// Appends `value`, seven bits a byte, low bits first.
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Appends `value` zig-zag coded, so small negative numbers stay short.
    static func appendSigned(_ value: Int64, to bytes: inout [UInt8]) {
        append(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }

    /// Reads varints and byte runs from a buffer; every read is nil past the end or on a
    /// varint longer than ten bytes, so damaged input cannot read out of bounds.
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        private(set) var position = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        mutating func next() -> UInt64? {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 70, by: 7) {
                guard position < bytes.count else { return nil }
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte < 0x80 { return value }
            }
            return nil
        }

        mutating func nextSigned() -> Int64? {
            next().map { Int64(bitPattern: ($0 >> 1) ^ (0 &- ($0 & 1))) }
        }

        mutating func bytes(_ count: Int) -> [UInt8]? {
            guard count >= 0, count <= bytes.count - position else { return nil }
            defer { position += count }
            return Array(bytes[position ..< position + count])
        }
    }
}
