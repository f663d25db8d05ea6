/// Applies a file's missing schema migrations in order, each in its own transaction, and
/// records them in `grdb_migrations`: the table and the identifiers GRDB's migrator used, so
/// files written by earlier builds (which used GRDB) upgrade in place.
struct SchemaMigrator {
    /// A named schema step.
    struct Migration {
        let identifier: String
        let script: String
    }

    private(set) var migrations: [Migration] = []

    /// Adds a migration after the ones registered so far.
    mutating func register(_ identifier: String, script: String) {
        migrations.append(Migration(identifier: identifier, script: script))
    }

    /// Brings the file up to `target` (all migrations by default). A file holding a
    /// migration this build does not know was written by a newer build, and is refused.
    func migrate(_ connection: SQLiteConnection, upTo target: String? = nil) throws {
        try connection.execute(script: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        let applied = Set(try connection.rows("SELECT identifier FROM grdb_migrations").map { try $0.text(0) })
        let known = Set(migrations.map(\.identifier))
        if let unknown = applied.subtracting(known).sorted().first {
            throw QueueError(
                .openFailed,
                "the queue \(connection.path) has schema \(unknown), written by a newer edge-gateway than this one (which knows \(migrations.map(\.identifier).joined(separator: ", "))); install that version again, or move the file aside to start an empty queue"
            )
        }
        for migration in migrations {
            if !applied.contains(migration.identifier) {
                try connection.transaction(.immediate) {
                    try connection.execute(script: migration.script)
                    try connection.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", [.text(migration.identifier)])
                }
            }
            if migration.identifier == target { return }
        }
    }
}
