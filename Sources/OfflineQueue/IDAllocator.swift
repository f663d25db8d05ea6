/// Hands out record ids that are never reused, even after every record was acknowledged and
/// the process restarted (a plain rowid would reuse the highest one, so a late ack could delete
/// a new record). Ids are reserved durably in blocks, so the reservation row is written once
/// per `blockSize` records rather than at every commit; a crash only leaves a gap.
struct IDAllocator {
    static let blockSize: Int64 = 65_536

    private var next: Int64
    private var limit: Int64

    /// Starts after everything that may have been handed out before.
    static func load(_ db: SQLiteConnection) throws(SQLiteError) -> IDAllocator {
        let limit = try db.row("SELECT next_limit FROM id_allocation")?.int64(0) ?? 1
        return IDAllocator(next: limit, limit: limit)
    }

    /// Whether `count` more ids fit in the block already reserved, so ``allocate(_:in:)``
    /// would write nothing.
    func hasReserved(_ count: Int) -> Bool {
        next + Int64(count) <= limit
    }

    /// Hands out `count` ids of the block already reserved (``hasReserved(_:)`` must be true);
    /// returns the first.
    mutating func allocateReserved(_ count: Int) -> Int64 {
        precondition(hasReserved(count), "allocateReserved past the reserved block")
        defer { next += Int64(count) }
        return next
    }

    /// Reserves `count` consecutive ids inside the caller's transaction; returns the first.
    mutating func allocate(_ count: Int, in db: SQLiteConnection) throws(SQLiteError) -> Int64 {
        let first = next
        next += Int64(count)
        if next > limit {
            limit = next + Self.blockSize
            try db.execute("UPDATE id_allocation SET next_limit = ?", [.integer(limit)])
        }
        return first
    }
}
