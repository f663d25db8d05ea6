import GRDB

/// Count and payload bytes of live (pending + leased) records, kept in memory by the writer so
/// the bounds can be checked at every commit without an O(backlog) `count(*)`.
///
/// Another process (the `queue retry-dead` command, say) can change the table behind the
/// writer's back; SQLite's `PRAGMA data_version` changes exactly then, and the totals are
/// recounted.
struct LiveTotals: Equatable {
    var count: Int
    var bytes: Int64
    private var dataVersion: Int

    /// Counts the table; O(backlog), done at open and after another process wrote.
    static func load(_ db: Database) throws -> LiveTotals {
        let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(length(payload)), 0) FROM records")
        let version = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        return LiveTotals(count: row?[0] ?? 0, bytes: row?[1] ?? 0, dataVersion: version)
    }

    /// Recounts if another connection committed since the last look, and says whether it did.
    /// Call inside a write transaction so the count matches what the transaction sees.
    mutating func refreshIfChanged(_ db: Database) throws -> Bool {
        let version = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        guard version != dataVersion else { return false }
        self = try Self.load(db)
        return true
    }

    /// Accounts for records added (positive) or removed (negative).
    mutating func add(count: Int, bytes: Int64) {
        self.count += count
        self.bytes += bytes
    }
}
