import GRDB

/// The consumer side of the writer: leases, acknowledgements and the dead-letter table.
extension QueueWriter {
    /// Returns lapsed leases to pending, then leases up to `max` pending records in capture order.
    func lease(max limit: Int) throws -> Lease {
        let now = configuration.clock.nanosecondsSince1970()
        let expiry = now + Self.nanoseconds(configuration.leaseDuration)
        return try transaction { db, _, _ in
            try db.execute(
                sql: "UPDATE records SET state = ?, lease_expiry = NULL WHERE state = ? AND lease_expiry <= ?",
                arguments: [QueueSchema.pending, QueueSchema.leased, now])
            let records = try Row.fetchAll(db, sql: """
                SELECT \(QueuedRecord.columns) FROM records WHERE state = ?
                ORDER BY capture_time, id LIMIT ?
                """, arguments: [QueueSchema.pending, Swift.max(0, limit)]).map(QueuedRecord.init(row:))
            _ = try RecordIDs.fetch(
                "UPDATE records SET state = ?, lease_expiry = ? WHERE id IN (?IDS?) RETURNING id",
                leading: [QueueSchema.leased, expiry], ids: records.map(\.id), in: db)
            return Lease(records: records, expiresAt: expiry)
        }
    }

    /// Deletes delivered records; returns how many existed.
    func ack(_ ids: [Int64]) throws -> Int {
        try transaction { db, totals, _ in
            try Self.remove(ids, in: db, totals: &totals)
        }
    }

    /// Moves records to the dead-letter table with `reason`; returns how many moved.
    func reject(_ ids: [Int64], reason: String) throws -> Int {
        let now = configuration.clock.nanosecondsSince1970()
        return try transaction { db, totals, _ in
            _ = try RecordIDs.fetch("""
                INSERT INTO dead_letters (id, stream, capture_time, version, reason, rejected_at, payload)
                SELECT id, stream, capture_time, version, ?, ?, payload FROM records WHERE id IN (?IDS?)
                RETURNING id
                """, leading: [reason, now], ids: ids, in: db)
            return try Self.remove(ids, in: db, totals: &totals)
        }
    }

    /// Moves dead letters matching `filter` back to pending, keeping their ids; returns how many.
    func retryDead(_ filter: DeadLetterFilter) throws -> Int {
        try transaction { db, totals, _ in
            let condition = "(?1 IS NULL OR instr(reason, ?1) > 0)"
            try db.execute(sql: """
                INSERT INTO records (id, stream, capture_time, version, state, payload)
                SELECT id, stream, capture_time, version, \(QueueSchema.pending), payload
                FROM dead_letters WHERE \(condition)
                """, arguments: [filter.reasonContains])
            let moved = try Row.fetchAll(
                db, sql: "DELETE FROM dead_letters WHERE \(condition) RETURNING length(payload)",
                arguments: [filter.reasonContains])
            totals.add(count: moved.count, bytes: moved.reduce(Int64(0)) { $0 + ($1[0] as Int64) })
            return moved.count
        }
    }

    private static func remove(_ ids: [Int64], in db: Database, totals: inout LiveTotals) throws -> Int {
        let removed = try RecordIDs.fetch("DELETE FROM records WHERE id IN (?IDS?) RETURNING length(payload)", ids: ids, in: db)
        totals.add(count: -removed.count, bytes: -removed.reduce(Int64(0)) { $0 + ($1[0] as Int64) })
        return removed.count
    }
}
