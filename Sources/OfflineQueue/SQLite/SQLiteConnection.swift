import CSQLite

/// One connection to a SQLite file through the system library's C API, used by one thread at a
/// time (the queue's writer actor owns it), so it is opened without SQLite's own mutex.
///
/// Statements run often (the group commit's insert, a lease's rows) are prepared once and kept;
/// statements whose text varies (id lists) are prepared for the one use.
final class SQLiteConnection {
    /// `BEGIN DEFERRED` takes the write lock at the first write; `BEGIN IMMEDIATE` at once.
    enum TransactionKind: String {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
    }

    /// The file, for messages.
    let path: String
    private var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (and if `create`, creates) the file, waiting up to `busyTimeoutMilliseconds` for
    /// another process's lock before a statement fails with `SQLITE_BUSY`.
    init(path: String, create: Bool = true, busyTimeoutMilliseconds: Int32 = 30_000) throws(SQLiteError) {
        var handle: OpaquePointer?
        let mode = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let status = sqlite3_open_v2(path, &handle, mode | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard status == SQLITE_OK, let handle else {
            let error = SQLiteError(status, connection: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        self.path = path
        self.handle = handle
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit {
        close()
    }

    /// Finalizes the kept statements and closes the connection; later calls fail with
    /// `SQLITE_MISUSE`.
    func close() {
        statements = [:]
        sqlite3_close_v2(handle)
        handle = nil
    }

    /// Runs a script of statements without arguments (schema changes, pragmas).
    func execute(script sql: String) throws(SQLiteError) {
        let handle = try open()
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        sqlite3_free(message)
        guard status == SQLITE_OK else { throw SQLiteError(sqlite3_extended_errcode(handle), connection: handle, sql: sql) }
    }

    /// Runs one statement with `arguments` bound to `?1…?n`, ignoring any rows.
    func execute(_ sql: String, _ arguments: [SQLiteValue] = [], keep: Bool = true) throws(SQLiteError) {
        try statement(sql, keep: keep).forEachRow(arguments) { _ throws(SQLiteError) in }
    }

    /// Every row of one statement.
    func rows(_ sql: String, _ arguments: [SQLiteValue] = [], keep: Bool = true) throws(SQLiteError) -> [SQLiteRow] {
        try statement(sql, keep: keep).rows(arguments)
    }

    /// The first row of one statement, if any.
    func row(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteRow? {
        try rows(sql, arguments).first
    }

    /// Each row of one statement as it is read (see ``SQLiteStatement/forEachRow(_:_:)``).
    func forEachRow(_ sql: String, _ arguments: [SQLiteValue] = [], _ body: (SQLiteRow) throws(SQLiteError) -> Void) throws(SQLiteError) {
        try statement(sql, keep: false).forEachRow(arguments, body)
    }

    /// Runs `body` in a transaction, committed if it returns and rolled back if it throws.
    func transaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue)")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    private func statement(_ sql: String, keep: Bool) throws(SQLiteError) -> SQLiteStatement {
        if let kept = statements[sql] { return kept }
        let statement = try SQLiteStatement(sql, on: try open(), persistent: keep)
        if keep { statements[sql] = statement }
        return statement
    }

    private func open() throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw SQLiteError(SQLITE_MISUSE, connection: nil, sql: nil) }
        return handle
    }
}
