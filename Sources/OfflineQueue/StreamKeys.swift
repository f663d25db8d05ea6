/// Maps stream keys (a sensor's address, say) to the small integers `records` stores instead,
/// so each record carries one or two bytes rather than the whole key.
///
/// Rows in `streams` are never deleted or changed, so a mapping read once stays true for the
/// life of the file, whoever wrote it; the store keeps the mappings of committed transactions.
struct StreamKeys {
    private var known: [String: Int64] = [:]

    /// The id of every key in `keys`, adding the new ones inside the caller's transaction.
    /// Returns every mapping known after the call; pass it to ``remember(_:)`` once it commits.
    func ids(for keys: some Sequence<String>, in db: SQLiteConnection) throws(SQLiteError) -> [String: Int64] {
        var found = known
        for key in keys where found[key] == nil {
            try db.execute("INSERT INTO streams (key) VALUES (?) ON CONFLICT (key) DO NOTHING", [.text(key)])
            found[key] = try db.row("SELECT id FROM streams WHERE key = ?", [.text(key)])?.int64(0)
        }
        return found
    }

    /// The ids of `keys` if every one is known already (no write needed), else nil.
    func knownIDs(for keys: some Sequence<String>) -> [String: Int64]? {
        var found: [String: Int64] = [:]
        for key in keys {
            guard let id = known[key] else { return nil }
            found[key] = id
        }
        return found
    }

    /// Every key by its id, read from the file (what a journal's records name).
    static func keysByID(in db: SQLiteConnection) throws(SQLiteError) -> [Int64: String] {
        var keys: [Int64: String] = [:]
        for row in try db.rows("SELECT id, key FROM streams", keep: false) { keys[try row.int64(0)] = try row.text(1) }
        return keys
    }

    /// Keeps the mappings returned by ``ids(for:in:)`` after its transaction committed.
    mutating func remember(_ mappings: [String: Int64]) {
        known = mappings
    }
}
