import CSQLite

/// A prepared statement: bound, stepped through, and reset for the next use. Owned by one
/// `SQLiteConnection`, which caches it by its SQL text.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    /// The SQL text, for error messages.
    let sql: String

    /// Prepares `sql`; `persistent` tells SQLite the statement will be kept and reused.
    init(_ sql: String, on connection: OpaquePointer, persistent: Bool) throws(SQLiteError) {
        var handle: OpaquePointer?
        let status = sqlite3_prepare_v3(connection, sql, -1, persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0, &handle, nil)
        guard status == SQLITE_OK, let handle else {
            throw SQLiteError(status, connection: connection, sql: sql)
        }
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `arguments` to `?1…?n`, runs the statement to its end and returns every row.
    func rows(_ arguments: [SQLiteValue]) throws(SQLiteError) -> [SQLiteRow] {
        var rows: [SQLiteRow] = []
        try forEachRow(arguments) { row throws(SQLiteError) in rows.append(row) }
        return rows
    }

    /// Binds `arguments`, then hands each row to `body` as it is read: rows read before a
    /// failure (a damaged page, say) have been handed over when the error is thrown.
    func forEachRow(_ arguments: [SQLiteValue], _ body: (SQLiteRow) throws(SQLiteError) -> Void) throws(SQLiteError) {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try bind(arguments)
        let columns = sqlite3_column_count(handle)
        while true {
            let status = sqlite3_step(handle)
            switch status {
            case SQLITE_ROW:
                try body(SQLiteRow(values: (0 ..< columns).map(column)))
            case SQLITE_DONE:
                return
            default:
                throw SQLiteError(sqlite3_extended_errcode(connection), connection: connection, sql: sql)
            }
        }
    }

    private func bind(_ arguments: [SQLiteValue]) throws(SQLiteError) {
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32 =
                switch argument {
                case .null: sqlite3_bind_null(handle, index)
                case .integer(let value): sqlite3_bind_int64(handle, index, value)
                case .real(let value): sqlite3_bind_double(handle, index, value)
                case .text(let value): sqlite3_bind_text(handle, index, value, -1, csqlite_transient())
                case .blob(let bytes):
                    bytes.withUnsafeBytes {
                        sqlite3_bind_blob64(handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64($0.count), csqlite_transient())
                    }
                }
            guard status == SQLITE_OK else { throw SQLiteError(status, connection: connection, sql: sql) }
        }
    }

    private func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let blob = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .null
        }
    }
}
