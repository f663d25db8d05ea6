#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Imports what can still be read from a moved-aside queue file into a live queue.
///
/// The file is never changed: a scratch copy beside it is read. A copy whose 16-byte header
/// ("SQLite format 3") was overwritten gets the header back, which is what makes SQLite read an
/// otherwise whole file again. Records are read in id order; where a damaged page stops the
/// read, reading resumes past it (seeking ever further ahead), so one bad page costs the records
/// on it, not the rest of the file. Imported records keep their stream, capture time, format
/// version and payload, and take new ids at the end of the live queue.
package enum QueueSalvage {
    /// What an import did.
    package struct Report: Sendable, Hashable {
        /// Records appended to the live queue.
        package var imported = 0
        /// Dead letters found in the file, which stay there (nil when they cannot be read).
        package var deadLettersLeft: Int?
        /// Whether the file's header had to be restored in the copy.
        package var headerRepaired = false
        /// The damage reading met and skipped past, in order.
        package var damage: [String] = []
    }

    /// The 16 bytes every SQLite database starts with.
    static let header = Array("SQLite format 3\0".utf8)
    /// Records read and appended at a time.
    static let chunkSize = 1_000

    /// Appends the readable records of `file` to `queue` and marks the file imported.
    package static func salvage(_ file: MovedAsideQueue, into queue: OfflineQueue) async throws(QueueError) -> Report {
        let scratch = file.path + ".salvaging"
        try? FileManager.default.removeItem(atPath: scratch)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var report = Report()
        let database = try scratchCopy(of: file, in: scratch, report: &report)
        let streams = try readable(file) { try streamKeys(database) }
        report.deadLettersLeft = try? database.row("SELECT count(*) FROM dead_letters")?.int(0)
        // Ids start at 1. After damage that stops a read, seek ever further past the last id
        // read (1, 2, 4 … ids on), which steps over a bad leaf page and its neighbours.
        var after: Int64 = 0
        var step: Int64 = 0
        while true {
            let (records, lastID, failure) = readChunk(database, after: after, streams: streams)
            if !records.isEmpty {
                try await queue.append(contentsOf: records)
                report.imported += records.count
            }
            if let lastID {
                after = lastID
                step = 0
            }
            guard let failure else {
                if records.isEmpty { break } else { continue }
            }
            report.damage.append("after record \(after): \(failure)")
            step = step == 0 ? 1 : step * 2
            let (next, overflow) = after.addingReportingOverflow(step)
            guard !overflow, step < 1 << 48 else { break }
            after = next
        }
        database.close()
        try file.markImported()
        return report
    }

    /// Copies the database and its WAL into `scratch`, restores a damaged header, and opens it.
    private static func scratchCopy(of file: MovedAsideQueue, in scratch: String, report: inout Report) throws(QueueError) -> SQLiteConnection {
        let copy = scratch + "/salvage.sqlite"
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try FileManager.default.copyItem(atPath: file.path, toPath: copy)
            if let wal = file.walPath { try FileManager.default.copyItem(atPath: wal, toPath: copy + "-wal") }
        } catch {
            throw QueueError(
                .writeFailed, "cannot make a scratch copy of \(file.path) in \(scratch): \(error); free some space on that file system and try again")
        }
        report.headerRepaired = try restoreHeader(of: copy, bytes: file.bytes)
        return try readable(file) { try SQLiteConnection(path: copy) }
    }

    /// Writes SQLite's 16-byte magic back over a damaged one (a file of at least one page);
    /// says whether it did.
    private static func restoreHeader(of copy: String, bytes: Int64) throws(QueueError) -> Bool {
        let descriptor = Glibc.open(copy, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw QueueError(.writeFailed, "cannot open the scratch copy \(copy): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var start = [UInt8](repeating: 0, count: header.count)
        guard pread(descriptor, &start, start.count, 0) == start.count, start != header, bytes >= 512 else { return false }
        guard pwrite(descriptor, header, header.count, 0) == header.count else {
            throw QueueError(
                .writeFailed,
                "cannot restore the header of the scratch copy \(copy): \(String(cString: strerror(errno))); free some space on that file system and try again")
        }
        return true
    }

    /// Runs `body`, turning a failure into "nothing in the file can be read".
    private static func readable<T>(_ file: MovedAsideQueue, _ body: () throws -> T) throws(QueueError) -> T {
        do {
            return try body()
        } catch {
            throw QueueError(.corrupt, "nothing in \(file.path) can be read as a queue: \(error); it stays where it is")
        }
    }

    /// The stream keys by id (schema v2 keeps them in `streams`), as far as they can be read;
    /// nil for a v1 file, whose records hold their keys themselves.
    private static func streamKeys(_ db: SQLiteConnection) throws -> [Int64: String]? {
        guard try db.row("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'streams'") != nil else { return nil }
        var keys: [Int64: String] = [:]
        do {
            try db.forEachRow("SELECT id, key FROM streams") { row throws(SQLiteError) in keys[try row.int64(0)] = try row.text(1) }
        } catch {
            // A damaged streams table costs the keys, not the records: see `streamKey`.
        }
        return keys
    }

    /// A record's stream key; one whose key was lost to damage gets `salvaged-<id>`, which
    /// still keeps its records apart from the others' for eviction counts.
    private static func streamKey(_ stored: SQLiteValue, streams: [Int64: String]?) -> String {
        switch (stored, streams) {
        case (.text(let key), nil): key
        case (_, nil): "salvaged"
        case (.integer(let id), let streams?): streams[id] ?? "salvaged-\(id)"
        default: "salvaged-?"
        }
    }

    /// Up to `chunkSize` records with ids above `after`, as far as the file can be read: the
    /// records read, the last id read, and the error that stopped the read, if one did.
    private static func readChunk(
        _ database: SQLiteConnection, after: Int64, streams: [Int64: String]?
    ) -> (records: [NewRecord], lastID: Int64?, failure: (any Error)?) {
        let sql = "SELECT id, stream, capture_time, version, payload FROM records WHERE id > ? ORDER BY id LIMIT ?"
        var records: [NewRecord] = []
        var lastID: Int64?
        do {
            try database.forEachRow(sql, [.integer(after), .integer(Int64(chunkSize))]) { row throws(SQLiteError) in
                records.append(
                    NewRecord(
                        payload: try row.data(4), stream: streamKey(row.values[1], streams: streams),
                        captureTime: try row.int64(2), version: try row.int(3)))
                lastID = try row.int64(0)
            }
        } catch {
            return (records, lastID, error)
        }
        return (records, lastID, nil)
    }
}
