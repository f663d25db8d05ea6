/// A snapshot of the queue for operators and health checks.
package struct QueueStats: Sendable, Hashable {
    /// Accepted records waiting for a consumer (including those whose lease has lapsed).
    package var pending: Int
    /// Records under an unexpired lease.
    package var leased: Int
    /// Rejected records in the dead-letter table.
    package var dead: Int
    /// Records evicted by the bounds since the queue file was created.
    package var evicted: Int
    /// Evicted records per stream key.
    package var evictedByStream: [String: Int]
    /// Age in nanoseconds of the pending record at the front of the queue (the next to be
    /// leased; a record accepted late, behind newer ones, is not looked for), or `nil` when
    /// nothing is pending.
    package var oldestPendingAgeNanoseconds: Int64?
    /// Bytes the queue occupies on disk: the database file plus its write-ahead log.
    package var databaseBytes: Int64
    /// Records appended but not yet committed (waiting for the next group commit or for disk
    /// space). Zero when read by a process that does not own the queue.
    package var unflushed: Int
    /// The storage problem blocking commits right now, if any.
    package var storageFault: QueueError?
}
