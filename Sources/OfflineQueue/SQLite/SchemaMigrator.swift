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
    ///
    /// Each step re-reads what is applied inside its own write transaction, so a second process
    /// migrating the same file at the same moment finds the step done and skips it.
    func migrate(_ connection: SQLiteConnection, upTo target: String? = nil) throws {
        try connection.execute(script: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        let before = try applied(connection)
        try refuseNewer(before, path: connection.path)
        for migration in migrations {
            if !before.contains(migration.identifier) {
                try connection.transaction(.immediate) {
                    guard try !applied(connection).contains(migration.identifier) else { return }
                    try connection.execute(script: migration.script)
                    try connection.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", [.text(migration.identifier)])
                }
            }
            if migration.identifier == target { return }
        }
    }

    /// Whether the file has every migration, without changing it: tools that work next to the
    /// daemon read a queue only once the daemon has made or upgraded it.
    func isCurrent(_ connection: SQLiteConnection) throws -> Bool {
        let exists = try connection.row("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'") != nil
        guard exists else { return false }
        let applied = try applied(connection)
        try refuseNewer(applied, path: connection.path)
        return migrations.allSatisfy { applied.contains($0.identifier) }
    }

    private func applied(_ connection: SQLiteConnection) throws -> Set<String> {
        Set(try connection.rows("SELECT identifier FROM grdb_migrations", keep: false).map { try $0.text(0) })
    }

    /// A file holding a migration this build does not know was written by a newer build.
    private func refuseNewer(_ applied: Set<String>, path: String) throws {
        guard let unknown = applied.subtracting(migrations.map(\.identifier)).sorted().first else { return }
        throw QueueError(
            .openFailed,
            "the queue \(path) has schema \(unknown), written by a newer edge-gateway than this one (which knows \(migrations.map(\.identifier).joined(separator: ", "))); install that version again, or move the file aside to start an empty queue"
        )
    }
}
