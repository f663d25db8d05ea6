import GRDB

/// Read-only queries behind ``OfflineQueue/stats()`` and the listing functions.
enum QueueReport {
    /// Counts by state (a lapsed lease counts as pending), evictions, and the oldest pending
    /// age. Only the `leases` rows are visited, plus the first unleased record; `live` supplies
    /// the total so the backlog is not counted.
    static func stats(_ db: Database, now: Int64, live: LiveTotals) throws -> QueueStats {
        let leases = try Row.fetchOne(db, sql: """
            SELECT count(*), coalesce(sum(l.expiry <= ?), 0), min(CASE WHEN l.expiry <= ? THEN t.capture_time END)
            FROM leases l JOIN records t ON t.id = l.id
            """, arguments: [now, now])
        let leased: Int = leases?[0] ?? 0, lapsed: Int = leases?[1] ?? 0
        let firstUnleased = try Int64.fetchOne(db, sql: """
            SELECT capture_time FROM records t WHERE \(QueueSchema.unleased) ORDER BY id LIMIT 1
            """)
        let oldest = [firstUnleased, leases?[2]].compactMap { $0 }.min()
        let dead = try Int.fetchOne(db, sql: "SELECT count(*) FROM dead_letters") ?? 0
        let byStream = try Row.fetchAll(db, sql: "SELECT stream, count FROM evictions")
            .reduce(into: [String: Int]()) { $0[$1[0]] = $1[1] }
        return QueueStats(
            pending: live.count - leased + lapsed, leased: leased - lapsed, dead: dead,
            evicted: byStream.values.reduce(0, +), evictedByStream: byStream,
            oldestPendingAgeNanoseconds: oldest.map { max(0, now - $0) },
            databaseBytes: 0, unflushed: 0, storageFault: nil)
    }

    static func deadLetters(_ db: Database, limit: Int) throws -> [DeadLetter] {
        try Row.fetchAll(db, sql: """
            \(QueuedRecord.selection(from: "dead_letters", extraColumns: "reason, rejected_at"))
            ORDER BY rejected_at, t.id LIMIT ?
            """, arguments: [limit]).map { row in
            DeadLetter(record: QueuedRecord(row: row), reason: row[5], rejectedAt: row[6])
        }
    }

    static func records(_ db: Database, after id: Int64, limit: Int) throws -> [QueuedRecord] {
        try Row.fetchAll(db, sql: """
            \(QueuedRecord.selection(from: "records")) WHERE t.id > ? ORDER BY t.id LIMIT ?
            """, arguments: [id, limit]).map(QueuedRecord.init(row:))
    }
}
