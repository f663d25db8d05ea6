#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// A durable store-and-forward queue of opaque records in one SQLite file, with an ingest
/// journal in front of it (`<file>.ingest`, see `IngestJournal`).
///
/// Guarantees: a record is *accepted* when ``append(_:)`` returns, which happens when its group
/// commit has reached the disk (the journal's block after `fdatasync`, or, without a journal,
/// SQLite's WAL with `synchronous=FULL`), so it survives `kill -9` and power loss. It then stays until ``ack(_:)`` deletes it, ``reject(_:reason:)`` moves it to the
/// dead-letter table, or the bounds evict it (oldest pending first, always counted). Leases hand
/// each record to one consumer at a time and lapse on their own, so a crashed consumer strands
/// nothing. Other processes may read (and change) the file while it is open here.
package final class OfflineQueue: Sendable {
    /// The SQLite file.
    package let path: String
    /// Set when the file was unusable at open and was replaced by a fresh queue.
    package let recovery: RecoveryReport?
    private let store: QueueStore
    private let clock: any QueueClock

    /// Opens the queue at `path`. With `.owner` it is created if missing, checked, and replaced
    /// (see ``recovery``) if damaged; with `.attach` it must exist and is used as it is.
    package init(path: String, access: QueueAccess = .owner, configuration: QueueConfiguration = QueueConfiguration()) throws(QueueError) {
        let (connection, recovery) = try QueueDatabase.open(path: path, access: access, configuration: configuration)
        self.path = path
        self.recovery = recovery
        self.clock = configuration.clock
        do {
            self.store = try QueueStore(connection: connection, path: path, configuration: configuration, access: access)
        } catch {
            throw QueueError.writing(error, path: path)
        }
    }

    /// Appends one record; returns its id once it is accepted (its group commit is durable).
    @discardableResult
    package func append(_ record: NewRecord) async throws(QueueError) -> Int64 {
        try await append(contentsOf: [record])[0]
    }

    /// Appends records that are accepted together; returns their ids in order.
    @discardableResult
    package func append(contentsOf records: [NewRecord]) async throws(QueueError) -> [Int64] {
        try await append(records, now: false)
    }

    /// Appends records and commits them at once, with whatever else waits, instead of at the
    /// end of the commit interval: for a caller that waited out the interval itself (the
    /// daemon's intake gathers samples until then). Returns their ids in order once accepted.
    @discardableResult
    package func commit(_ records: [NewRecord]) async throws(QueueError) -> [Int64] {
        try await append(records, now: true)
    }

    private func append(_ records: [NewRecord], now: Bool) async throws(QueueError) -> [Int64] {
        do {
            return try await store.append(records, now: now)
        } catch {
            throw QueueError.writing(error, path: path)
        }
    }

    /// The storage fault under way (a full or failing disk), or nil while commits succeed.
    package func storageFault() async -> QueueError? {
        await store.currentFault
    }

    /// Commits waiting records now instead of at the next interval (for shutdown).
    package func flush() async throws(QueueError) {
        try await store.flush()
    }

    /// Leases up to `max` pending records in id order: capture order as they were accepted
    /// (a record accepted late, after newer ones, comes after them).
    package func lease(max: Int) async throws(QueueError) -> Lease {
        try await consuming { try $0.lease(max: max) }
    }

    /// Deletes delivered records; returns how many of `ids` were still in the queue.
    @discardableResult
    package func ack(_ ids: [Int64]) async throws(QueueError) -> Int {
        try await consuming { try $0.ack(ids) }
    }

    /// Moves records the consumer cannot deliver to the dead-letter table; returns how many.
    @discardableResult
    package func reject(_ ids: [Int64], reason: String) async throws(QueueError) -> Int {
        try await consuming { try $0.reject(ids, reason: reason) }
    }

    /// Returns leased records to pending now rather than when their lease expires, for a
    /// consumer that stops with records in hand, or starts after one that was killed with
    /// some (nil: every lease). Returns how many were leased.
    @discardableResult
    package func release(_ ids: [Int64]? = nil) async throws(QueueError) -> Int {
        try await consuming { try $0.release(ids) }
    }

    /// Moves matching dead letters back to pending; returns how many.
    @discardableResult
    package func retryDead(_ filter: DeadLetterFilter = .all) async throws(QueueError) -> Int {
        try await consuming { try $0.retryDead(filter) }
    }

    /// Flushes and closes; later calls fail with ``QueueError/Code/closed``. Records that still
    /// cannot be written (a full disk) fail their own appends; closing itself cannot fail.
    package func close() async {
        await store.close()
    }

    /// Counts and sizes, read from the file (so they include other processes' changes); costs
    /// the number of leased records, not the backlog, except in a process that has not written
    /// or after another process wrote, when the live records are counted once.
    package func stats() async throws(QueueError) -> QueueStats {
        let now = clock.nanosecondsSince1970()
        var stats = try await consuming { try $0.stats(now: now) }
        stats.databaseBytes = Self.fileSize(path) + Self.fileSize(path + "-wal") + Self.fileSize(IngestReplay.journalPath(for: path))
        return stats
    }

    /// Dead letters, oldest rejection first.
    package func deadLetters(limit: Int = .max) async throws(QueueError) -> [DeadLetter] {
        try await reading { db in try QueueReport.deadLetters(db, limit: limit) }
    }

    /// Live (pending and leased) records with ids above `id`, in id (acceptance) order: a page
    /// of an export that does not hold a read transaction open for the whole backlog.
    package func records(after id: Int64, limit: Int) async throws(QueueError) -> [QueuedRecord] {
        do {
            return try await store.liveRecords(after: id, limit: limit)
        } catch {
            throw QueueError.reading(error, path: path)
        }
    }

    /// Runs `sql` on the store's connection and returns the first column of each row as text:
    /// how tests check per-connection settings (`PRAGMA synchronous`) or shrink the file's
    /// limit (`PRAGMA max_page_count`) to make the disk look full.
    func onStoreConnection(_ sql: String) async throws(QueueError) -> [String] {
        try await consuming { store in
            try store.connection.rows(sql, keep: false).map { row in
                switch row.values.first {
                case .integer(let value)?: String(value)
                case .text(let value)?: value
                default: "\(row.values)"
                }
            }
        }
    }

    private func consuming<T: Sendable>(_ operation: @Sendable (isolated QueueStore) throws -> T) async throws(QueueError) -> T {
        do {
            return try await operation(store)
        } catch {
            throw QueueError.writing(error, path: path)
        }
    }

    /// Reads on the store's connection: reads are rare (operator commands), so a second
    /// connection, with its own page cache, would cost more memory than it saves waiting.
    private func reading<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) async throws(QueueError) -> T {
        do {
            return try await store.read(body)
        } catch {
            throw QueueError.reading(error, path: path)
        }
    }

    private static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
