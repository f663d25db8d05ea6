/// A record the consumer rejected (for example the server refused it), kept with the reason so
/// an operator can inspect it and, after a fix, send it back with ``OfflineQueue/retryDead(_:)``.
package struct DeadLetter: Sendable, Hashable {
    /// The record, with its original id.
    package var record: QueuedRecord
    /// Why it was rejected, as the consumer said it.
    package var reason: String
    /// When it was rejected, in nanoseconds since 1970.
    package var rejectedAt: Int64
}

/// Which dead letters ``OfflineQueue/retryDead(_:)`` moves back to pending.
package struct DeadLetterFilter: Sendable, Hashable {
    /// Only those whose reason contains this text (case-sensitive); `nil` matches all.
    package var reasonContains: String?

    /// A filter on the rejection reason.
    package init(reasonContains: String? = nil) {
        self.reasonContains = reasonContains
    }

    /// Every dead letter.
    package static let all = DeadLetterFilter()
}
