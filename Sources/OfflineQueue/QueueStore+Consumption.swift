/// The consumer side of the store: leases, acknowledgements and the dead-letter table.
extension QueueStore {
    /// Drops lapsed leases, then leases up to `max` unleased records from the front of the
    /// table (id order) by writing one small `leases` row each.
    func lease(max limit: Int) throws -> Lease {
        let now = configuration.clock.nanosecondsSince1970()
        let expiry = now + Self.nanoseconds(configuration.leaseDuration)
        return try transaction { db, _, _ in
            try db.execute("DELETE FROM leases WHERE expiry <= ?", [.integer(now)])
            let records = try db.rows(
                """
                \(QueuedRecord.selection(from: "records")) WHERE \(QueueSchema.unleased) ORDER BY t.id LIMIT ?
                """, [.integer(Int64(Swift.max(0, limit)))]
            ).map(QueuedRecord.init(row:))
            for record in records {
                try db.execute("INSERT INTO leases (id, expiry) VALUES (?, ?)", [.integer(record.id), .integer(expiry)])
            }
            return Lease(records: records, expiresAt: expiry)
        }
    }

    /// Deletes delivered records; returns how many existed.
    func ack(_ ids: [Int64]) throws -> Int {
        try transaction { db, totals, _ in
            try Self.remove(ids, in: db, totals: &totals)
        }
    }

    /// Deletes the lease rows of `ids` (every lease, when nil), returning those records to
    /// pending; returns how many were leased.
    func release(_ ids: [Int64]?) throws -> Int {
        try transaction { db, _, _ in
            guard let ids else { return try db.rows("DELETE FROM leases RETURNING id").count }
            return try RecordIDs.fetch("DELETE FROM leases WHERE id IN (?IDS?) RETURNING id", ids: ids, in: db).count
        }
    }

    /// Moves records to the dead-letter table with `reason`; returns how many moved.
    func reject(_ ids: [Int64], reason: String) throws -> Int {
        let now = configuration.clock.nanosecondsSince1970()
        return try transaction { db, totals, _ in
            _ = try RecordIDs.fetch(
                """
                INSERT INTO dead_letters (id, stream, capture_time, version, reason, rejected_at, payload)
                SELECT id, stream, capture_time, version, ?, ?, payload FROM records WHERE id IN (?IDS?)
                RETURNING id
                """, leading: [.text(reason), .integer(now)], ids: ids, in: db)
            return try Self.remove(ids, in: db, totals: &totals)
        }
    }

    /// Moves dead letters matching `filter` back to pending, keeping their ids; returns how many.
    func retryDead(_ filter: DeadLetterFilter) throws -> Int {
        try transaction { db, totals, _ in
            let condition = "(?1 IS NULL OR instr(reason, ?1) > 0)"
            let reason: SQLiteValue = filter.reasonContains.map(SQLiteValue.text) ?? .null
            try db.execute(
                """
                INSERT INTO records (id, stream, capture_time, version, payload)
                SELECT id, stream, capture_time, version, payload FROM dead_letters WHERE \(condition)
                """, [reason])
            let moved = try db.rows("DELETE FROM dead_letters WHERE \(condition) RETURNING length(payload)", [reason])
            totals.add(count: moved.count, bytes: try moved.reduce(Int64(0)) { $0 + (try $1.int64(0)) })
            return moved.count
        }
    }

    /// Deletes records and their leases.
    private static func remove(_ ids: [Int64], in db: SQLiteConnection, totals: inout LiveTotals) throws -> Int {
        let removed = try RecordIDs.fetch("DELETE FROM records WHERE id IN (?IDS?) RETURNING length(payload)", ids: ids, in: db)
        try RecordIDs.delete(ids, from: "leases", in: db)
        totals.add(count: -removed.count, bytes: -(try removed.reduce(Int64(0)) { $0 + (try $1.int64(0)) }))
        return removed.count
    }
}
