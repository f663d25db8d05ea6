/// The consumer side of the store: leases, acknowledgements and the dead-letter table.
extension QueueStore {
    /// Drops lapsed leases, then leases up to `max` unleased records from the front of the
    /// table (id order) by writing one small `leases` row each.
    ///
    /// With a journal, its records compete by id with SQLite's: the lease takes the `max`
    /// lowest ids of both, writing lease rows only for SQLite's (the journal's leases live in
    /// memory), so while SQLite holds no backlog a lease writes nothing.
    func lease(max limit: Int) throws -> Lease {
        let now = configuration.clock.nanosecondsSince1970()
        let expiry = now + Self.nanoseconds(configuration.leaseDuration)
        let limit = Swift.max(0, limit)
        let held = journal == nil ? [] : residents.unleased(limit: limit, now: now)
        let leased = try transaction { db, _, _ in
            try db.execute("DELETE FROM leases WHERE expiry <= ?", [.integer(now)])
            let stored = try db.rows(
                """
                \(QueuedRecord.selection(from: "records")) WHERE \(QueueSchema.unleased) ORDER BY t.id LIMIT ?
                """, [.integer(Int64(limit))]
            ).map(QueuedRecord.init(row:))
            let chosen = (stored + held).sorted { $0.id < $1.id }.prefix(limit)
            for record in chosen where !residents.contains(record.id) {
                try db.execute("INSERT INTO leases (id, expiry) VALUES (?, ?)", [.integer(record.id), .integer(expiry)])
            }
            return Array(chosen)
        }
        let heldIDs = leased.map(\.id).filter { residents.contains($0) }
        residents.lease(heldIDs, until: expiry)
        return Lease(records: leased, expiresAt: expiry)
    }

    /// Deletes delivered records; returns how many existed.
    func ack(_ ids: [Int64]) throws -> Int {
        let (held, rest) = takeFromJournal(ids)
        guard !rest.isEmpty else { return held.count }
        return try held.count
            + transaction { db, totals, _ in
                try Self.remove(rest, in: db, totals: &totals)
            }
    }

    /// Deletes the lease rows of `ids` (every lease, when nil), returning those records to
    /// pending; returns how many were leased.
    func release(_ ids: [Int64]?) throws -> Int {
        let now = configuration.clock.nanosecondsSince1970()
        let held = residents.release(ids, now: now)
        return try held
            + transaction { db, _, _ in
                guard let ids else { return try db.rows("DELETE FROM leases RETURNING id").count }
                return try RecordIDs.fetch("DELETE FROM leases WHERE id IN (?IDS?) RETURNING id", ids: ids, in: db).count
            }
    }

    /// Moves records to the dead-letter table with `reason`; returns how many moved.
    func reject(_ ids: [Int64], reason: String) throws -> Int {
        let now = configuration.clock.nanosecondsSince1970()
        let held = residents.peek(ids)
        let moved = try transaction { db, totals, _ in
            let streamIDs = try streams.ids(for: Set(held.map(\.stream)), in: db)
            for record in held {
                try db.execute(
                    """
                    INSERT INTO dead_letters (id, stream, capture_time, version, reason, rejected_at, payload)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .integer(record.id), streamIDs[record.stream].map(SQLiteValue.integer) ?? .null, .integer(record.captureTime),
                        .integer(Int64(record.version)), .text(reason), .integer(now), .blob(Array(record.payload)),
                    ])
            }
            let rest = ids.filter { !residents.contains($0) }
            _ = try RecordIDs.fetch(
                """
                INSERT INTO dead_letters (id, stream, capture_time, version, reason, rejected_at, payload)
                SELECT id, stream, capture_time, version, ?, ?, payload FROM records WHERE id IN (?IDS?)
                RETURNING id
                """, leading: [.text(reason), .integer(now)], ids: rest, in: db)
            return (try Self.remove(rest, in: db, totals: &totals), streamIDs)
        }
        streams.remember(moved.1)
        _ = takeFromJournal(held.map(\.id))
        // Written down now, not with the next commit: rejections are rare, and a tool reading
        // the journal would otherwise count a dead letter as pending too.
        if !held.isEmpty { commitWaiting() }
        return held.count + moved.0
    }

    /// Removes the journal's records among `ids` (their ids are written down as gone with the
    /// next commit, scheduled now); returns them and the ids it does not hold.
    private func takeFromJournal(_ ids: [Int64]) -> (held: [QueuedRecord], rest: [Int64]) {
        guard journal != nil else { return ([], ids) }
        let held = residents.remove(ids)
        if !held.isEmpty { scheduleCommit() }
        let heldIDs = Set(held.map(\.id))
        return (held, ids.filter { !heldIDs.contains($0) })
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
