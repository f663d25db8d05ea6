import GRDB

/// Read-only queries behind ``OfflineQueue/stats()`` and the listing functions.
enum QueueReport {
    /// Counts by state (a lapsed lease counts as pending), evictions, and the oldest pending age.
    static func stats(_ db: Database, now: Int64) throws -> QueueStats {
        let pendingState = QueueSchema.pending, leasedState = QueueSchema.leased
        let pending = try Int.fetchOne(db, sql: "SELECT count(*) FROM records WHERE state = ?", arguments: [pendingState]) ?? 0
        let leases = try Row.fetchOne(db, sql: """
            SELECT count(*), coalesce(sum(lease_expiry <= ?), 0), min(CASE WHEN lease_expiry <= ? THEN capture_time END)
            FROM records WHERE state = ?
            """, arguments: [now, now, leasedState])
        let lapsed: Int = leases?[1] ?? 0
        let oldestPending = try Int64.fetchOne(db, sql: "SELECT min(capture_time) FROM records WHERE state = ?", arguments: [pendingState])
        let oldest = [oldestPending, leases?[2]].compactMap { $0 }.min()
        let dead = try Int.fetchOne(db, sql: "SELECT count(*) FROM dead_letters") ?? 0
        let byStream = try Row.fetchAll(db, sql: "SELECT stream, count FROM evictions")
            .reduce(into: [String: Int]()) { $0[$1[0]] = $1[1] }
        return QueueStats(
            pending: pending + lapsed, leased: (leases?[0] ?? 0) - lapsed, dead: dead,
            evicted: byStream.values.reduce(0, +), evictedByStream: byStream,
            oldestPendingAgeNanoseconds: oldest.map { max(0, now - $0) },
            databaseBytes: 0, unflushed: 0, storageFault: nil)
    }

    static func deadLetters(_ db: Database, limit: Int) throws -> [DeadLetter] {
        try Row.fetchAll(db, sql: """
            SELECT \(QueuedRecord.columns), reason, rejected_at FROM dead_letters
            ORDER BY rejected_at, id LIMIT ?
            """, arguments: [limit]).map { row in
            DeadLetter(record: QueuedRecord(row: row), reason: row[5], rejectedAt: row[6])
        }
    }

    static func records(_ db: Database, after id: Int64, limit: Int) throws -> [QueuedRecord] {
        try Row.fetchAll(db, sql: """
            SELECT \(QueuedRecord.columns) FROM records WHERE id > ? ORDER BY id LIMIT ?
            """, arguments: [id, limit]).map(QueuedRecord.init(row:))
    }
}
