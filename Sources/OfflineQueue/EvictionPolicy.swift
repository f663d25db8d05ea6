/// The bounds (`max_records`, `max_bytes`, `max_age`) and how they are enforced: the oldest
/// *pending* records go first (leased ones are in flight and stay), and every eviction is
/// counted per stream in the `evictions` table inside the same transaction, so the count is as
/// durable as the deletion.
///
/// "Oldest" is the front of the queue, in id order (capture order as accepted), so checking
/// the bounds at a commit reads one row unless something has to go.
struct EvictionPolicy {
    var maxRecords: Int
    var maxBytes: Int64
    var maxAgeNanoseconds: Int64

    /// A pending record at the front of the queue.
    private struct Front {
        let id: Int64
        let stream: String
        let bytes: Int64
        let captureTime: Int64
    }

    /// Evicts until the bounds hold (as far as pending records allow); returns counts per stream.
    func enforce(_ db: SQLiteConnection, now: Int64, totals: inout LiveTotals) throws -> [String: Int] {
        var evicted: [String: Int] = [:]
        let cutoff = now - maxAgeNanoseconds
        // One row says whether anything is too old; only then read the front in chunks.
        var limit = 1
        while true {
            let front = try Self.front(db, limit: limit)
            let expired = Array(front.prefix { $0.captureTime < cutoff })
            try Self.remove(expired, in: db, evicted: &evicted, totals: &totals)
            guard expired.count == limit else { break }
            limit = RecordIDs.chunkSize
        }
        while totals.count > maxRecords || totals.bytes > maxBytes {
            let front = try Self.front(db, limit: min(max(totals.count - maxRecords, 1), RecordIDs.chunkSize))
            guard !front.isEmpty else { break }
            var excess: [Front] = []
            var (count, bytes) = (totals.count, totals.bytes)
            for record in front where count > maxRecords || bytes > maxBytes {
                excess.append(record)
                (count, bytes) = (count - 1, bytes - record.bytes)
            }
            try Self.remove(excess, in: db, evicted: &evicted, totals: &totals)
        }
        for (stream, count) in evicted {
            try db.execute(
                """
                INSERT INTO evictions (stream, count) VALUES (?, ?)
                ON CONFLICT (stream) DO UPDATE SET count = count + excluded.count
                """, [.text(stream), .integer(Int64(count))])
        }
        return evicted
    }

    /// The first `limit` records no lease holds, in queue order.
    private static func front(_ db: SQLiteConnection, limit: Int) throws -> [Front] {
        try db.rows(
            """
            SELECT t.id, s.key, length(t.payload), t.capture_time FROM records t JOIN streams s ON s.id = t.stream
            WHERE \(QueueSchema.unleased) ORDER BY t.id LIMIT ?
            """, [.integer(Int64(limit))]
        ).map { row throws(SQLiteError) in
            Front(id: try row.int64(0), stream: try row.text(1), bytes: try row.int64(2), captureTime: try row.int64(3))
        }
    }

    private static func remove(_ records: [Front], in db: SQLiteConnection, evicted: inout [String: Int], totals: inout LiveTotals) throws {
        guard !records.isEmpty else { return }
        try RecordIDs.delete(records.map(\.id), from: "records", in: db)
        for record in records {
            evicted[record.stream, default: 0] += 1
            totals.add(count: -1, bytes: -record.bytes)
        }
    }
}
