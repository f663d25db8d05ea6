/// One group commit as the ingest journal stores it: the records it accepted, with their ids,
/// and the ids that left the journal since the previous commit (delivered, or moved to the
/// dead letters), in whole 4 KiB blocks.
///
/// Layout, little-endian: a 48-byte header (magic, format, the journal's file id, sequence,
/// first record id, record count, gone-range count, body length, CRC-32C of header and body),
/// then the body: per record its stream id, capture time (the first absolute, the others as
/// the difference from the one before), format version and payload length as LEB128 varints
/// (the signed ones zig-zag coded), then the payload; per gone range its first id and length.
/// Ids within a commit are consecutive, so records carry none. Padded with zeros to the next
/// 4 KiB boundary, so a commit never shares a block with an earlier one: writing it cannot tear
/// what an earlier commit made durable.
struct IngestBlock: Equatable {
    /// One record of the commit.
    struct Record: Equatable {
        var stream: Int64
        var captureTime: Int64
        var version: Int
        var payload: [UInt8]
    }

    static let alignment = 4096
    static let headerSize = 48
    static let magic: UInt32 = 0x4A57_4745  // "EGWJ"
    static let format: UInt16 = 1

    var sequence: UInt64
    /// The id of the first record; the others follow one by one.
    var firstID: Int64
    var records: [Record]
    /// Ids that left the journal since the previous commit, as (first, count) runs.
    var gone: [(first: Int64, count: Int64)]

    static func == (lhs: IngestBlock, rhs: IngestBlock) -> Bool {
        lhs.sequence == rhs.sequence && lhs.firstID == rhs.firstID && lhs.records == rhs.records
            && lhs.gone.elementsEqual(rhs.gone) { $0.first == $1.first && $0.count == $1.count }
    }

    /// The last record id of the commit (`firstID - 1` when it holds none).
    var lastID: Int64 { firstID + Int64(records.count) - 1 }

    /// The commit's bytes for the journal with `fileID`, padded to whole blocks.
    func encoded(fileID: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerSize + records.reduce(0) { $0 + $1.payload.count + 12 } + gone.count * 8)
        func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        put(Self.magic)
        put(Self.format)
        put(UInt16(0))
        put(fileID)
        put(sequence)
        put(UInt64(bitPattern: firstID))
        put(UInt32(records.count))
        put(UInt32(gone.count))
        put(UInt32(0))  // the body's length, below
        put(UInt32(0))  // the checksum, below
        var previous: Int64 = 0
        for record in records {
            Varint.append(UInt64(bitPattern: record.stream), to: &bytes)
            Varint.appendSigned(record.captureTime &- previous, to: &bytes)
            previous = record.captureTime
            Varint.append(UInt64(record.version), to: &bytes)
            Varint.append(UInt64(record.payload.count), to: &bytes)
            bytes += record.payload
        }
        for run in gone {
            Varint.appendSigned(run.first, to: &bytes)
            Varint.append(UInt64(run.count), to: &bytes)
        }
        let length = bytes.count
        withUnsafeBytes(of: UInt32(length - Self.headerSize).littleEndian) { bytes.replaceSubrange(40 ..< 44, with: $0) }
        withUnsafeBytes(of: CRC32C.checksum(bytes).littleEndian) { bytes.replaceSubrange(44 ..< 48, with: $0) }
        bytes += repeatElement(0, count: (length + Self.alignment - 1) / Self.alignment * Self.alignment - length)
        return bytes
    }

    /// Decodes the commit starting at `offset` of `bytes` (a journal read whole) if one of
    /// `fileID` is there and its checksum holds; returns it with the bytes it spans (whole
    /// blocks). Nil for anything else: an unwritten or torn block, another file's, or the middle
    /// of a longer commit.
    static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int, fileID: UInt64) -> (block: IngestBlock, span: Int)? {
        guard offset + headerSize <= bytes.count else { return nil }
        func load<T: FixedWidthInteger>(_ position: Int, as: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + position, as: T.self))
        }
        guard load(0, as: UInt32.self) == magic, load(4, as: UInt16.self) == format, load(8, as: UInt64.self) == fileID else {
            return nil
        }
        let bodyLength = Int(load(40, as: UInt32.self))
        let length = headerSize + bodyLength
        guard offset + length <= bytes.count else { return nil }
        var checked = CRC32C.checksum(bytes[offset ..< offset + 44])
        checked = CRC32C.checksum([0, 0, 0, 0], continuing: checked)
        checked = CRC32C.checksum(bytes[offset + headerSize ..< offset + length], continuing: checked)
        guard checked == load(44, as: UInt32.self) else { return nil }
        var reader = Varint.Reader(bytes: UnsafeRawBufferPointer(rebasing: bytes[offset + headerSize ..< offset + length]))
        var block = IngestBlock(
            sequence: load(16, as: UInt64.self), firstID: Int64(bitPattern: load(24, as: UInt64.self)), records: [], gone: [])
        var previous: Int64 = 0
        for _ in 0 ..< load(32, as: UInt32.self) {
            guard let stream = reader.next(), let delta = reader.nextSigned(), let version = reader.next(),
                let count = reader.next(), let payload = reader.bytes(Int(clamping: count))
            else { return nil }
            previous = previous &+ delta
            block.records.append(Record(stream: Int64(bitPattern: stream), captureTime: previous, version: Int(clamping: version), payload: payload))
        }
        for _ in 0 ..< load(36, as: UInt32.self) {
            guard let first = reader.nextSigned(), let count = reader.next() else { return nil }
            block.gone.append((first, Int64(clamping: count)))
        }
        return (block, (length + alignment - 1) / alignment * alignment)
    }
}
