#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// A record as stored, with the id the queue gave it when its batch committed. Leases,
/// acknowledgements and rejections name records by this id.
package struct QueuedRecord: Sendable, Hashable {
    /// Unique within one queue file and never reused, even after the record is deleted.
    package var id: Int64
    /// The payload bytes as appended.
    package var payload: Data
    /// The producer's stream key.
    package var stream: String
    /// Capture time in nanoseconds since 1970.
    package var captureTime: Int64
    /// The payload format version.
    package var version: Int

    /// A record from its parts.
    package init(id: Int64, payload: Data, stream: String, captureTime: Int64, version: Int) {
        self.id = id
        self.payload = payload
        self.stream = stream
        self.captureTime = captureTime
        self.version = version
    }

    /// Reads the columns `id, stream key, capture_time, version, payload` in that order.
    init(row: SQLiteRow) throws(SQLiteError) {
        self.init(
            id: try row.int64(0), payload: try row.data(4), stream: try row.text(1), captureTime: try row.int64(2),
            version: try row.int(3))
    }

    /// `SELECT` of the columns ``init(row:)`` reads (then `extraColumns`) from `table` (aliased
    /// `t`), with the stream id turned back into its key; append `WHERE`/`ORDER BY` to it.
    static func selection(from table: String, extraColumns: String = "") -> String {
        "SELECT t.id, s.key, t.capture_time, t.version, t.payload\(extraColumns.isEmpty ? "" : ", " + extraColumns) "
            + "FROM \(table) t JOIN streams s ON s.id = t.stream"
    }
}

/// A batch handed to one consumer for a while. Until `expiresAt` no other lease returns these
/// records; after it (for example because the consumer crashed) they are pending again, so a
/// lease can never strand a record.
package struct Lease: Sendable, Hashable {
    /// The records in queue order: capture order as they were accepted.
    package var records: [QueuedRecord]
    /// When the lease lapses, in nanoseconds since 1970 on the queue's clock.
    package var expiresAt: Int64

    /// The ids to pass to ``OfflineQueue/ack(_:)`` or ``OfflineQueue/reject(_:reason:)``.
    package var ids: [Int64] { records.map(\.id) }
}
