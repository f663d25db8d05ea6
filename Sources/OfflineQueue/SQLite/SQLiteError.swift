import CSQLite

/// A failure reported by SQLite: its result code (primary and extended), SQLite's own message,
/// and the statement it came from, so `QueueError` can tell a full disk from damage from a
/// permission problem.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_IOERR_FSYNC`, say).
    let extendedCode: Int32
    /// SQLite's message for it.
    let message: String
    /// The statement, when there was one.
    let sql: String?

    /// A value of the wrong type in a result row (`SQLITE_MISMATCH`).
    init(mismatch message: String) {
        self.extendedCode = SQLITE_MISMATCH
        self.message = message
        self.sql = nil
    }

    /// The primary result code (`SQLITE_FULL`, `SQLITE_CORRUPT`, …).
    var code: Int32 { extendedCode & 0xFF }

    /// The error SQLite last reported on `connection`.
    init(_ extendedCode: Int32, connection: OpaquePointer?, sql: String? = nil) {
        self.extendedCode = extendedCode
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.message = text ?? String(cString: sqlite3_errstr(extendedCode))
        self.sql = sql
    }

    /// The name of the primary code, for messages an operator may search for.
    var codeName: String {
        switch code {
        case SQLITE_CANTOPEN: "SQLITE_CANTOPEN"
        case SQLITE_PERM: "SQLITE_PERM"
        case SQLITE_READONLY: "SQLITE_READONLY"
        case SQLITE_AUTH: "SQLITE_AUTH"
        case SQLITE_IOERR: "SQLITE_IOERR"
        case SQLITE_FULL: "SQLITE_FULL"
        case SQLITE_CORRUPT: "SQLITE_CORRUPT"
        case SQLITE_NOTADB: "SQLITE_NOTADB"
        case SQLITE_BUSY: "SQLITE_BUSY"
        case SQLITE_LOCKED: "SQLITE_LOCKED"
        case SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT"
        case SQLITE_MISMATCH: "SQLITE_MISMATCH"
        default: "SQLite error \(code)"
        }
    }

    var description: String {
        "SQLite error \(code) (\(codeName)): \(message)" + (sql.map { " - while executing `\($0)`" } ?? "")
    }
}
