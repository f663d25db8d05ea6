import GRDB

/// The bounds (`max_records`, `max_bytes`, `max_age`) and how they are enforced: the oldest
/// *pending* records go first (leased ones are in flight and stay), and every eviction is
/// counted per stream in the `evictions` table inside the same transaction, so the count is as
/// durable as the deletion.
struct EvictionPolicy {
    var maxRecords: Int
    var maxBytes: Int64
    var maxAgeNanoseconds: Int64

    /// Evicts until the bounds hold (as far as pending records allow); returns counts per stream.
    func enforce(_ db: Database, now: Int64, totals: inout LiveTotals) throws -> [String: Int] {
        var evicted: [String: Int] = [:]
        let cutoff = now - maxAgeNanoseconds
        let expired = try Row.fetchAll(db, sql: """
            SELECT stream, count(*), sum(length(payload)) FROM records
            WHERE state = ? AND capture_time < ? GROUP BY stream
            """, arguments: [QueueSchema.pending, cutoff])
        if !expired.isEmpty {
            try db.execute(sql: "DELETE FROM records WHERE state = ? AND capture_time < ?",
                           arguments: [QueueSchema.pending, cutoff])
            for row in expired {
                evicted[row[0], default: 0] += row[1]
                totals.add(count: -row[1], bytes: -row[2])
            }
        }
        while totals.count > maxRecords || totals.bytes > maxBytes {
            let excess = max(totals.count - maxRecords, 1)
            let oldest = try Row.fetchAll(db, sql: """
                SELECT id, stream, length(payload) FROM records WHERE state = ?
                ORDER BY capture_time, id LIMIT ?
                """, arguments: [QueueSchema.pending, min(excess, 500)])
            guard !oldest.isEmpty else { break }
            var ids: [Int64] = []
            for row in oldest where totals.count > maxRecords || totals.bytes > maxBytes {
                ids.append(row[0])
                evicted[row[1], default: 0] += 1
                totals.add(count: -1, bytes: -row[2])
            }
            try RecordIDs.delete(ids, from: "records", in: db)
        }
        for (stream, count) in evicted {
            try db.execute(sql: """
                INSERT INTO evictions (stream, count) VALUES (?, ?)
                ON CONFLICT (stream) DO UPDATE SET count = count + excluded.count
                """, arguments: [stream, count])
        }
        return evicted
    }
}
