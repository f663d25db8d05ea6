import CLinux
import Glibc

/// The file in front of the queue's SQLite file that makes a group commit durable with one
/// block written and one `fdatasync`, where SQLite's WAL writes several pages (the record's
/// leaf, page 1, the parents) and later copies them again into the database.
///
/// A fixed-size file, written whole when created, so later writes overwrite blocks the file
/// system has already allocated: no metadata changes under `fdatasync`. Block 0 names the file
/// (a random id that every commit repeats); the others form a ring of commits
/// (``IngestBlock``), each starting on a block boundary. A commit that does not fit before the
/// end starts again at block 1. Commits from ``head`` on are *live*: their records not yet
/// delivered exist nowhere else. The store retires the oldest live commits into SQLite (their
/// undelivered records, and the new head, in one SQLite transaction) before the ring would
/// overwrite them.
///
/// One writer at a time, which holds the file's `flock` (other owners of the same queue file
/// commit straight to SQLite); used by one thread at a time (the queue's storage actor), like
/// the SQLite connection. Other processes read it without the lock.
final class IngestJournal {
    /// A live commit's place in the ring.
    struct Placement: Equatable {
        var sequence: UInt64
        var block: Int
        var blocks: Int
        var lastID: Int64
    }

    /// What a journal file holds: its id, the head as last noted in block 0, and every whole
    /// commit in it, oldest first.
    struct Contents {
        var fileID: UInt64
        var headHint: UInt64
        var blocks: [(block: IngestBlock, placement: Placement)]
    }

    static let fileMagic: UInt64 = 0x3149_4A57_4745_4745  // "EGEGWJI1"
    static let blockSize = IngestBlock.alignment

    let path: String
    let fileID: UInt64
    /// Blocks in the file, block 0 included.
    let blockCount: Int
    private let file: LockedFile
    private var descriptor: Int32 { file.descriptor }
    /// Live commits, oldest first.
    private(set) var live: [Placement]
    /// The sequence number the next commit takes.
    private(set) var nextSequence: UInt64
    /// Where the next commit starts if it fits before the end.
    private var tail: Int

    /// The journal open as `file` (from ``lock(path:)``), for writing after `contents`
    /// (what ``read(_:path:)`` found there) whose commits before `head` are retired; or, when
    /// `contents` is nil, made afresh in place: `bytes` long, zero-filled, with a new id.
    init(file: LockedFile, path: String, contents: Contents?, head: UInt64, bytes: Int) throws(QueueError) {
        self.path = path
        self.file = file
        let descriptor = file.descriptor
        if let contents {
            var info = stat()
            fstat(descriptor, &info)
            fileID = contents.fileID
            blockCount = Int(info.st_size) / Self.blockSize
            live = contents.blocks.map(\.placement).filter { $0.sequence >= head }
            nextSequence = max(head, (live.last?.sequence ?? 0) + 1)
            tail = live.last.map { $0.block + $0.blocks } ?? 1
        } else {
            fileID = UInt64.random(in: 1 ... .max)
            blockCount = max(8, bytes / Self.blockSize)
            try Self.initialize(descriptor, path: path, fileID: fileID, head: head, blocks: blockCount)
            live = []
            nextSequence = head
            tail = 1
        }
    }

    /// Live blocks over ring blocks: how full the ring is.
    var usedFraction: Double {
        guard let first = live.first, let last = live.last else { return 0 }
        let end = last.block + last.blocks
        let used = end > first.block ? end - first.block : blockCount - first.block + end - 1
        return Double(used) / Double(blockCount - 1)
    }

    /// Where a commit of `blocks` blocks would start, or nil while live commits are in the way
    /// (retire the oldest and ask again).
    func start(forBlocks blocks: Int) -> Int? {
        guard blocks < blockCount - 1 else { return nil }
        let start = tail + blocks <= blockCount ? tail : 1
        guard let head = live.first?.block else { return start }
        if tail > head {
            // The live commits run from the head to the tail: free after the tail, and from
            // block 1 up to the head.
            return start == tail || start + blocks <= head ? start : nil
        }
        // They run from the head past the end and on from block 1 to the tail: free only
        // between the tail and the head.
        return start == tail && start + blocks <= head ? start : nil
    }

    /// Writes a commit, `bytes` as ``IngestBlock/encoded(fileID:)`` gave them for
    /// ``nextSequence``, and makes it durable.
    func write(_ bytes: [UInt8], lastID: Int64) throws(QueueError) {
        let blocks = bytes.count / Self.blockSize
        guard let start = start(forBlocks: blocks) else {
            throw QueueError(.writeFailed, "the ingest journal \(path) has no room for a commit of \(blocks) blocks")
        }
        try file.writeBlocks(bytes, at: start * Self.blockSize, path: path)
        guard fdatasync(file.writer) == 0 else { throw Self.failure("fdatasync", path) }
        live.append(Placement(sequence: nextSequence, block: start, blocks: blocks, lastID: lastID))
        nextSequence += 1
        tail = start + blocks
    }

    /// Forgets the live commits up to `sequence`, whose records are now delivered or in SQLite,
    /// and notes the new head in block 0. SQLite's record of the head is the one that counts;
    /// the note (made durable by the next commit's `fdatasync`) is for a queue file replaced
    /// after damage, which lost it: the journal then replays from the note, not from its oldest
    /// commit.
    func retire(through sequence: UInt64) {
        live.removeAll { $0.sequence <= sequence }
        try? file.writeBlocks(Self.firstBlock(fileID: fileID, head: sequence + 1), at: 0, path: path)
    }

    /// Block 0: what names the file a journal, its id and the head as last noted.
    private static func firstBlock(fileID: UInt64, head: UInt64) -> [UInt8] {
        var first = [UInt8](repeating: 0, count: blockSize)
        withUnsafeBytes(of: fileMagic.littleEndian) { first.replaceSubrange(0 ..< 8, with: $0) }
        withUnsafeBytes(of: fileID.littleEndian) { first.replaceSubrange(8 ..< 16, with: $0) }
        withUnsafeBytes(of: head.littleEndian) { first.replaceSubrange(16 ..< 24, with: $0) }
        return first
    }

    /// Opens (creating it if need be) the journal at `path` and takes its lock, which its writer
    /// holds for as long as it runs; nil when another process holds it (a second writer of the
    /// same queue then commits straight to SQLite).
    static func lock(path: String) throws(QueueError) -> LockedFile? {
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("open", path) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let error = failure("lock", path)
            close(descriptor)
            if busy { return nil }
            throw error
        }
        // Commits bypass the page cache where the file system allows it (tmpfs does not).
        let direct = Glibc.open(path, O_RDWR | clinux_o_direct() | O_CLOEXEC)
        return LockedFile(descriptor: descriptor, direct: direct >= 0 ? direct : nil)
    }

    /// Reads every whole commit in the journal at `path`; nil when there is none.
    static func read(path: String) throws(QueueError) -> Contents? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("open", path)
        }
        defer { close(descriptor) }
        return try read(descriptor, path: path)
    }

    /// Reads every whole commit in the journal open on `descriptor`; nil when it is empty or
    /// not a journal (block 0 does not name one).
    static func read(_ descriptor: Int32, path: String) throws(QueueError) -> Contents? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("stat", path) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            guard count > 0 else { throw failure("read", path) }
            done += count
        }
        // Drop what the read cached: read-ahead caches large folios, and a commit that later
        // dirties 4 KiB of one is charged (and may be written) the whole folio.
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
        return bytes.withUnsafeBytes { buffer -> Contents? in
            guard buffer.count >= 2 * blockSize, buffer.loadUnaligned(as: UInt64.self) == fileMagic.littleEndian else { return nil }
            let fileID = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let headHint = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            var found: [(IngestBlock, Placement)] = []
            var block = 1
            while block < buffer.count / blockSize {
                if let (commit, span) = IngestBlock.decode(buffer, at: block * blockSize, fileID: fileID) {
                    let blocks = span / blockSize
                    found.append((commit, Placement(sequence: commit.sequence, block: block, blocks: blocks, lastID: commit.lastID)))
                    block += blocks
                } else {
                    block += 1
                }
            }
            return Contents(fileID: fileID, headHint: headHint, blocks: found.sorted { $0.1.sequence < $1.1.sequence })
        }
    }

    /// Makes the file a fresh journal: the ring zero-filled, then block 0 naming it, each made
    /// durable in turn, so a crash part-way leaves a file that names no journal (or the old one,
    /// whose commits were replayed before) rather than one whose blocks could be misread.
    private static func initialize(_ descriptor: Int32, path: String, fileID: UInt64, head: UInt64, blocks: Int) throws(QueueError) {
        let zeros = [UInt8](repeating: 0, count: 64 * blockSize)
        var ok =
            ftruncate(descriptor, off_t(blocks * blockSize)) == 0
            && zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, blockSize, 0) } == blockSize
        var offset = blockSize
        while ok, offset < blocks * blockSize {
            let count = min(zeros.count, blocks * blockSize - offset)
            ok = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, count, off_t(offset)) } == count
            offset += count
        }
        let first = firstBlock(fileID: fileID, head: head)
        ok =
            ok && fsync(descriptor) == 0 && first.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == blockSize
            && fsync(descriptor) == 0
        guard ok else { throw failure("initialize", path) }
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
        let directory = Glibc.open(path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    private static func failure(_ operation: String, _ path: String) -> QueueError {
        let code = errno
        return QueueError(
            code == ENOSPC || code == EDQUOT ? .storageFull : code == EROFS || code == EIO ? .storageFailed : .writeFailed,
            "cannot \(operation) the ingest journal \(path): \(String(cString: strerror(code)))")
    }
}

/// The journal's open file: the descriptor holding its lock (reads, and the making of the
/// file), and the one commits are written through, closed (and the lock released) when the last
/// reference goes.
///
/// Commits go through `O_DIRECT` when the file system allows it, so a commit is exactly its
/// blocks to the device. Through the page cache, a 4 KiB write into a large folio (the kernel
/// makes them for large writes and for read-ahead) marks the whole folio dirty: measured here,
/// each commit was charged 64 KiB instead of 4. Without `O_DIRECT`, each commit's pages are
/// dropped from the cache once synced, so the next one lands in fresh 4 KiB pages.
final class LockedFile {
    let descriptor: Int32
    private var direct: Int32?
    /// A block-aligned buffer for `O_DIRECT` writes, grown as commits need.
    private var aligned: UnsafeMutableRawPointer?
    private var alignedCapacity = 0

    init(descriptor: Int32, direct: Int32?) {
        self.descriptor = descriptor
        self.direct = direct
    }

    deinit {
        if let direct { close(direct) }
        close(descriptor)
        aligned.map { free($0) }
    }

    /// The descriptor commits are written and synced through.
    var writer: Int32 { direct ?? descriptor }

    /// Writes `bytes` (whole blocks) at `offset`; not synced.
    func writeBlocks(_ bytes: [UInt8], at offset: Int, path: String) throws(QueueError) {
        let written: Int
        if let direct {
            if alignedCapacity < bytes.count {
                aligned.map { free($0) }
                aligned = nil
                alignedCapacity = 0
                guard posix_memalign(&aligned, IngestJournal.blockSize, bytes.count) == 0 else {
                    throw QueueError(.writeFailed, "cannot allocate \(bytes.count) bytes to write the ingest journal \(path)")
                }
                alignedCapacity = bytes.count
            }
            bytes.withUnsafeBytes { aligned!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            let count = pwrite(direct, aligned, bytes.count, off_t(offset))
            if count < 0, errno == EINVAL {
                // The device wants larger alignment than a block: write through the cache.
                close(direct)
                self.direct = nil
                return try writeBlocks(bytes, at: offset, path: path)
            }
            written = count
        } else {
            written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if written == bytes.count { _ = posix_fadvise(descriptor, off_t(offset), off_t(bytes.count), POSIX_FADV_DONTNEED) }
        }
        guard written == bytes.count else {
            let code = errno
            throw QueueError(
                code == ENOSPC || code == EDQUOT ? .storageFull : code == EROFS || code == EIO ? .storageFailed : .writeFailed,
                "cannot write the ingest journal \(path): \(String(cString: strerror(code)))")
        }
    }
}
