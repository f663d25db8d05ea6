#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// Statements over lists of record ids, chunked to stay under SQLite's bound-parameter limit.
enum RecordIDs {
    static let chunkSize = 500

    /// Runs `sql`, whose `?IDS?` placeholder becomes `?, ?, …`, once per chunk of `ids`, with
    /// `leading` arguments bound before the ids. Returns the rows of every chunk.
    static func fetch(_ sql: String, leading: [SQLiteValue] = [], ids: [Int64], in db: SQLiteConnection) throws(SQLiteError) -> [SQLiteRow] {
        var rows: [SQLiteRow] = []
        for start in stride(from: 0, to: ids.count, by: chunkSize) {
            let chunk = Array(ids[start ..< min(start + chunkSize, ids.count)])
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let statement = sql.replacing("?IDS?", with: placeholders)
            rows += try db.rows(statement, leading + chunk.map(SQLiteValue.integer), keep: chunk.count == chunkSize)
        }
        return rows
    }

    /// Deletes the rows with these ids from `table`.
    static func delete(_ ids: [Int64], from table: String, in db: SQLiteConnection) throws(SQLiteError) {
        _ = try fetch("DELETE FROM \(table) WHERE id IN (?IDS?) RETURNING id", ids: ids, in: db)
    }
}
