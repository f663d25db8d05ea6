import GRDB

/// The queue's tables, created and upgraded only through GRDB's migrator so every file knows
/// which schema version it has.
///
/// `records` holds live records: `state` 0 = pending, 1 = leased until `lease_expiry`. The
/// index on `(state, capture_time)` (the rowid `id` is appended to every index entry) makes
/// "oldest pending" and "expired leases" range scans, so leasing, acking and evicting cost the
/// same whatever the backlog. `payload` is the last column so reading the others never touches
/// overflow pages.
enum QueueSchema {
    static let pending = 0
    static let leased = 1

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE records (
                    id INTEGER PRIMARY KEY,
                    stream TEXT NOT NULL,
                    capture_time INTEGER NOT NULL,
                    version INTEGER NOT NULL,
                    state INTEGER NOT NULL DEFAULT 0,
                    lease_expiry INTEGER,
                    payload BLOB NOT NULL
                );
                CREATE INDEX records_by_state ON records (state, capture_time);
                CREATE TABLE dead_letters (
                    id INTEGER PRIMARY KEY,
                    stream TEXT NOT NULL,
                    capture_time INTEGER NOT NULL,
                    version INTEGER NOT NULL,
                    reason TEXT NOT NULL,
                    rejected_at INTEGER NOT NULL,
                    payload BLOB NOT NULL
                );
                CREATE TABLE evictions (
                    stream TEXT PRIMARY KEY,
                    count INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE id_allocation (
                    singleton INTEGER PRIMARY KEY CHECK (singleton = 0),
                    next_limit INTEGER NOT NULL
                );
                INSERT INTO id_allocation (singleton, next_limit) VALUES (0, 1);
                """)
        }
        return migrator
    }
}
