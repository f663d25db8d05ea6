/// The queue's tables, created and upgraded only through the migrator so every file knows
/// which schema version it has (in `grdb_migrations`, the table GRDB's migrator kept when the
/// queue was built on GRDB).
///
/// Schema v2 is shaped by what an SD card pays per record (see docs/PERFORMANCE.md):
/// - `records` holds live records, keyed by id. Ids are handed out in capture order within each
///   group commit, so id order is capture order as the records were accepted, and the table
///   itself is the queue: leasing and evicting walk it from the front. It has no index, so an
///   append touches only the table's last pages (v1's `(state, capture_time)` index cost a
///   quarter of each commit's writes).
/// - `leases` has one row per leased record with its expiry. Leasing writes these small rows
///   instead of rewriting the records' pages, and acking deletes both.
/// - `streams` stores each stream key once; records refer to it by a small integer.
/// - `payload` is the last column so reading the others never touches overflow pages.
///
/// Schema v3 adds `ingest`: records reach these tables through the ingest journal, in batches,
/// and only if they are not delivered first.
enum QueueSchema {
    /// A condition on `records t` true for records no lease holds (not even a lapsed one).
    static let unleased = "NOT EXISTS (SELECT 1 FROM leases l WHERE l.id = t.id)"

    static var migrator: SchemaMigrator {
        var migrator = SchemaMigrator()
        migrator.register(
            "v1",
            script: """
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
        // v2: records keep their ids, so a v1 backlog drains in the order it was accepted;
        // leases carry over with their expiries.
        migrator.register(
            "v2",
            script: """
                CREATE TABLE streams (
                    id INTEGER PRIMARY KEY,
                    key TEXT NOT NULL UNIQUE
                );
                INSERT INTO streams (key)
                    SELECT stream FROM records UNION SELECT stream FROM dead_letters;
                CREATE TABLE leases (
                    id INTEGER PRIMARY KEY,
                    expiry INTEGER NOT NULL
                );
                INSERT INTO leases (id, expiry)
                    SELECT id, lease_expiry FROM records WHERE state = 1 AND lease_expiry IS NOT NULL;
                CREATE TABLE records_v2 (
                    id INTEGER PRIMARY KEY,
                    stream INTEGER NOT NULL,
                    capture_time INTEGER NOT NULL,
                    version INTEGER NOT NULL,
                    payload BLOB NOT NULL
                );
                INSERT INTO records_v2
                    SELECT r.id, s.id, r.capture_time, r.version, r.payload
                    FROM records r JOIN streams s ON s.key = r.stream;
                DROP TABLE records;
                ALTER TABLE records_v2 RENAME TO records;
                CREATE TABLE dead_letters_v2 (
                    id INTEGER PRIMARY KEY,
                    stream INTEGER NOT NULL,
                    capture_time INTEGER NOT NULL,
                    version INTEGER NOT NULL,
                    reason TEXT NOT NULL,
                    rejected_at INTEGER NOT NULL,
                    payload BLOB NOT NULL
                );
                INSERT INTO dead_letters_v2
                    SELECT d.id, s.id, d.capture_time, d.version, d.reason, d.rejected_at, d.payload
                    FROM dead_letters d JOIN streams s ON s.key = d.stream;
                DROP TABLE dead_letters;
                ALTER TABLE dead_letters_v2 RENAME TO dead_letters;
                """)
        // v3: the ingest journal in front of the tables (`Ingest/IngestJournal.swift`): which
        // journal file belongs to this queue and the first of its commits not yet retired into
        // the tables. No row until the owner first opens the file with a journal.
        migrator.register(
            "v3",
            script: """
                CREATE TABLE ingest (
                    singleton INTEGER PRIMARY KEY CHECK (singleton = 0),
                    file_id INTEGER NOT NULL,
                    head INTEGER NOT NULL
                );
                """)
        return migrator
    }
}
