/// A snapshot of the queue for operators and health checks.
public struct QueueStats: Sendable, Hashable {
    /// Accepted records waiting for a consumer (including those whose lease has lapsed).
    public var pending: Int
    /// Records under an unexpired lease.
    public var leased: Int
    /// Rejected records in the dead-letter table.
    public var dead: Int
    /// Records evicted by the bounds since the queue file was created.
    public var evicted: Int
    /// Evicted records per stream key.
    public var evictedByStream: [String: Int]
    /// Age in nanoseconds of the pending record at the front of the queue (the next to be
    /// leased; a record accepted late, behind newer ones, is not looked for), or `nil` when
    /// nothing is pending.
    public var oldestPendingAgeNanoseconds: Int64?
    /// Bytes the queue occupies on disk: the database file plus its write-ahead log.
    public var databaseBytes: Int64
    /// Records appended but not yet committed (waiting for the next group commit or for disk
    /// space). Zero when read by a process that does not own the queue.
    public var unflushed: Int
    /// The storage problem blocking commits right now, if any.
    public var storageFault: QueueError?
}
