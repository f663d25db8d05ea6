/// Read-only queries behind ``OfflineQueue/stats()`` and the listing functions.
enum QueueReport {
    /// Counts by state (a lapsed lease counts as pending), evictions, and the oldest pending
    /// age. Only the `leases` rows are visited, plus the first unleased record; `live` supplies
    /// the total so the backlog is not counted.
    static func stats(_ db: SQLiteConnection, now: Int64, live: LiveTotals) throws(SQLiteError) -> QueueStats {
        let leases = try db.row(
            """
            SELECT count(*), coalesce(sum(l.expiry <= ?1), 0), min(CASE WHEN l.expiry <= ?1 THEN t.capture_time END)
            FROM leases l JOIN records t ON t.id = l.id
            """, [.integer(now)])
        let leased = try leases?.int(0) ?? 0
        let lapsed = try leases?.int(1) ?? 0
        let firstUnleased = try db.row(
            """
            SELECT capture_time FROM records t WHERE \(QueueSchema.unleased) ORDER BY id LIMIT 1
            """)?.int64(0)
        let oldest = [firstUnleased, try leases?.optionalInt64(2)].compactMap { $0 }.min()
        let dead = try db.row("SELECT count(*) FROM dead_letters")?.int(0) ?? 0
        var byStream: [String: Int] = [:]
        for row in try db.rows("SELECT stream, count FROM evictions") {
            byStream[try row.text(0)] = try row.int(1)
        }
        return QueueStats(
            pending: live.count - leased + lapsed, leased: leased - lapsed, dead: dead,
            evicted: byStream.values.reduce(0, +), evictedByStream: byStream,
            oldestPendingAgeNanoseconds: oldest.map { max(0, now - $0) },
            databaseBytes: 0, unflushed: 0, storageFault: nil)
    }

    static func deadLetters(_ db: SQLiteConnection, limit: Int) throws(SQLiteError) -> [DeadLetter] {
        try db.rows(
            """
            \(QueuedRecord.selection(from: "dead_letters", extraColumns: "reason, rejected_at"))
            ORDER BY rejected_at, t.id LIMIT ?
            """, [.integer(Int64(limit))]
        ).map { row throws(SQLiteError) in
            DeadLetter(record: try QueuedRecord(row: row), reason: try row.text(5), rejectedAt: try row.int64(6))
        }
    }

    static func records(_ db: SQLiteConnection, after id: Int64, limit: Int) throws(SQLiteError) -> [QueuedRecord] {
        try db.rows(
            """
            \(QueuedRecord.selection(from: "records")) WHERE t.id > ? ORDER BY t.id LIMIT ?
            """, [.integer(id), .integer(Int64(limit))]
        ).map(QueuedRecord.init(row:))
    }
}
