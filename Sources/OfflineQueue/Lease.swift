/// A batch handed to one consumer for a while. Until `expiresAt` no other lease returns these
/// records; after it (for example because the consumer crashed) they are pending again, so a
/// lease can never strand a record.
public struct Lease: Sendable, Hashable {
    /// The records in queue order: capture order as they were accepted.
    public var records: [QueuedRecord]
    /// When the lease lapses, in nanoseconds since 1970 on the queue's clock.
    public var expiresAt: Int64

    /// The ids to pass to ``OfflineQueue/ack(_:)`` or ``OfflineQueue/reject(_:reason:)``.
    public var ids: [Int64] { records.map(\.id) }
}
