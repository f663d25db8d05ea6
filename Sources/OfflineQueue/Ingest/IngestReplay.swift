#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Logging

/// Reading the ingest journal back: by the owner when it opens the queue (every record the
/// journal holds and SQLite does not goes into SQLite, and a fresh journal starts), and by
/// other processes (`queue stats`, `queue export`, `status`) to count and list those records
/// beside SQLite's.
enum IngestReplay {
    /// The journal that belongs to the queue file at `queuePath`.
    static func journalPath(for queuePath: String) -> String {
        queuePath + ".ingest"
    }

    /// The records the journal holds beyond SQLite's head: in commits from the head on, less
    /// the ids written down as gone. Also the journal read, the last sequence seen, and the
    /// sequences missing between the head and it (damaged commits).
    static func pending(
        in contents: IngestJournal.Contents, from head: UInt64, keys: [Int64: String]
    ) -> (records: [QueuedRecord], lastSequence: UInt64?, missing: [UInt64]) {
        var records: [QueuedRecord] = []
        var gone = Set<Int64>()
        var expected = head
        var missing: [UInt64] = []
        var last: UInt64?
        for (block, _) in contents.blocks where block.sequence >= head {
            if block.sequence > expected { missing += Array(expected ..< min(block.sequence, expected + 100)) }
            expected = block.sequence + 1
            last = block.sequence
            for (offset, record) in block.records.enumerated() {
                records.append(
                    QueuedRecord(
                        id: block.firstID + Int64(offset), payload: Data(record.payload), stream: keys[record.stream] ?? "stream-\(record.stream)",
                        captureTime: record.captureTime, version: record.version))
            }
            for run in block.gone { gone.formUnion(run.first ..< run.first + run.count) }
        }
        return (records.filter { !gone.contains($0.id) }.sorted { $0.id < $1.id }, last, missing)
    }

    /// For a process beside the owner: the records the journal holds that SQLite (as read on
    /// `db`) does not, in id order; empty without a journal.
    static func pending(queuePath: String, db: SQLiteConnection) throws -> [QueuedRecord] {
        guard let state = try QueueStore.ingestHead(in: db),
            let contents = try IngestJournal.read(path: journalPath(for: queuePath)), contents.fileID == state.fileID
        else { return [] }
        return pending(in: contents, from: state.head, keys: try StreamKeys.keysByID(in: db)).records
    }

    /// For the owner at open: moves what the journal holds into SQLite and returns the journal
    /// to write next (the same file, its commits all retired, or made afresh in place); nil
    /// when `bytes` is 0 (a journal left from before is replayed, then removed) or when another
    /// process of this queue holds the journal.
    static func open(queuePath: String, db: SQLiteConnection, bytes: Int, logger: Logger) throws -> IngestJournal? {
        let path = journalPath(for: queuePath)
        if bytes == 0, !FileManager.default.fileExists(atPath: path) { return nil }
        guard let file = try IngestJournal.lock(path: path) else {
            logger.notice(
                "another process writes this queue's ingest journal; this one commits straight to the queue file",
                metadata: ["journal": "\(path)"])
            return nil
        }
        let state = try QueueStore.ingestHead(in: db)
        var contents = try IngestJournal.read(file.descriptor, path: path)
        if let found = contents, let state, found.fileID != state.fileID {
            logger.critical(
                "the ingest journal is not this queue's (its id differs from the one the queue file records); it is not read, and is made afresh",
                metadata: ["journal": "\(path)"])
            contents = nil
        }
        var head = state?.head ?? 1
        if let contents {
            let found = pending(in: contents, from: state?.head ?? contents.headHint, keys: try StreamKeys.keysByID(in: db))
            if !found.missing.isEmpty {
                logger.critical(
                    "the ingest journal has damaged commits: the records they held are lost",
                    metadata: ["journal": "\(path)", "commits": "\(found.missing)"])
            }
            head = max(head, (found.lastSequence ?? 0) + 1)
            try db.transaction(.immediate) {
                var streams = StreamKeys()
                let ids = try streams.ids(for: Set(found.records.map(\.stream)), in: db)
                streams.remember(ids)
                _ = try QueueStore.insert(found.records.map { ($0, nil) }, streamIDs: ids, in: db)
                try QueueStore.setIngestHead(head, fileID: contents.fileID, in: db)
            }
            if !found.records.isEmpty {
                logger.notice("records of the ingest journal moved into the queue file", metadata: ["records": "\(found.records.count)"])
            }
        }
        guard bytes > 0 else {
            unlink(path)
            return nil
        }
        let size = max(8, bytes / IngestJournal.blockSize) * IngestJournal.blockSize
        let reusable = contents.flatMap { fileSize(path) == size ? $0 : nil }
        let journal = try IngestJournal(file: file, path: path, contents: reusable, head: head, bytes: bytes)
        if reusable == nil {
            try db.transaction(.immediate) { try QueueStore.setIngestHead(head, fileID: journal.fileID, in: db) }
        }
        return journal
    }

    private static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
