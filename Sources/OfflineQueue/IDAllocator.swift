import GRDB

/// Hands out record ids that are never reused, even after every record was acknowledged and
/// the process restarted (a plain rowid would reuse the highest one, so a late ack could delete
/// a new record). Ids are reserved durably in blocks, so the reservation row is written once
/// per `blockSize` records rather than at every commit; a crash only leaves a gap.
struct IDAllocator {
    static let blockSize: Int64 = 65_536

    private var next: Int64
    private var limit: Int64

    /// Starts after everything that may have been handed out before.
    static func load(_ db: Database) throws -> IDAllocator {
        let limit = try Int64.fetchOne(db, sql: "SELECT next_limit FROM id_allocation") ?? 1
        return IDAllocator(next: limit, limit: limit)
    }

    /// Reserves `count` consecutive ids inside the caller's transaction; returns the first.
    mutating func allocate(_ count: Int, in db: Database) throws -> Int64 {
        let first = next
        next += Int64(count)
        if next > limit {
            limit = next + Self.blockSize
            try db.execute(sql: "UPDATE id_allocation SET next_limit = ?", arguments: [limit])
        }
        return first
    }
}
