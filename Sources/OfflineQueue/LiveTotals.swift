/// Count and payload bytes of live (pending + leased) records, kept in memory by `QueueStore`
/// so the bounds can be checked at every commit without an O(backlog) `count(*)`.
///
/// Another process (the `queue retry-dead` command, say) can change the table behind the
/// back of the store; SQLite's `PRAGMA data_version` changes exactly then, and the totals are
/// recounted.
struct LiveTotals: Equatable {
    var count: Int
    var bytes: Int64
    private var dataVersion: Int

    /// Counts the table; O(backlog), done at open and after another process wrote.
    static func load(_ db: SQLiteConnection) throws(SQLiteError) -> LiveTotals {
        let row = try db.row("SELECT count(*), coalesce(sum(length(payload)), 0) FROM records")
        return LiveTotals(count: try row?.int(0) ?? 0, bytes: try row?.int64(1) ?? 0, dataVersion: try dataVersion(db))
    }

    /// Recounts if another connection committed since the last look, and says whether it did.
    /// Call inside a write transaction so the count matches what the transaction sees.
    mutating func refreshIfChanged(_ db: SQLiteConnection) throws(SQLiteError) -> Bool {
        guard try Self.dataVersion(db) != dataVersion else { return false }
        self = try Self.load(db)
        return true
    }

    private static func dataVersion(_ db: SQLiteConnection) throws(SQLiteError) -> Int {
        try db.row("PRAGMA data_version")?.int(0) ?? 0
    }

    /// Accounts for records added (positive) or removed (negative).
    mutating func add(count: Int, bytes: Int64) {
        self.count += count
        self.bytes += bytes
    }
}
