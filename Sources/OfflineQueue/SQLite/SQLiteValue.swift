#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One value of a result row or statement argument, in SQLite's five storage classes.
enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// One result row. Reading a column as the wrong type throws rather than trapping: the file may
/// have been damaged or written by someone else, and the daemon must not crash on it.
struct SQLiteRow {
    /// The columns, left to right.
    let values: [SQLiteValue]

    /// An integer column.
    func int64(_ column: Int) throws(SQLiteError) -> Int64 {
        guard let value = try optionalInt64(column) else { throw mismatch(column, "an integer", found: "NULL") }
        return value
    }

    /// An integer column that may be NULL.
    func optionalInt64(_ column: Int) throws(SQLiteError) -> Int64? {
        switch values[column] {
        case .null: nil
        case .integer(let value): value
        default: throw mismatch(column, "an integer", found: "\(values[column])")
        }
    }

    /// An integer column as `Int`.
    func int(_ column: Int) throws(SQLiteError) -> Int {
        Int(try int64(column))
    }

    /// A text column.
    func text(_ column: Int) throws(SQLiteError) -> String {
        guard case .text(let value) = values[column] else { throw mismatch(column, "text", found: "\(values[column])") }
        return value
    }

    /// A blob column (or text, read as its UTF-8 bytes).
    func data(_ column: Int) throws(SQLiteError) -> Data {
        switch values[column] {
        case .blob(let bytes): Data(bytes)
        case .text(let text): Data(text.utf8)
        default: throw mismatch(column, "a blob", found: "\(values[column])")
        }
    }

    private func mismatch(_ column: Int, _ expected: String, found: String) -> SQLiteError {
        SQLiteError(mismatch: "column \(column) holds \(found.prefix(40)), not \(expected)")
    }
}
