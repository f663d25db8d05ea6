/// What one `JHEClient.delivery(of:)` came to: an outcome per sample, plus what the caller's
/// retry loop needs to know about the samples left unsettled.
package struct Delivery: Sendable, Equatable {
    /// One outcome per sample, in the order given.
    package var outcomes: [Outcome]
    /// The longest `Retry-After` the server asked for, if any: wait at least this long.
    package var retryAfter: Duration?
    /// Whether the server could not be reached at all (refused, reset, timed out, TLS, or a
    /// proxy's 502/503/504): worth probing cheaply before the next full attempt.
    package var serverUnreachable: Bool

    /// A delivery from its parts.
    package init(outcomes: [Outcome], retryAfter: Duration? = nil, serverUnreachable: Bool = false) {
        self.outcomes = outcomes
        self.retryAfter = retryAfter
        self.serverUnreachable = serverUnreachable
    }
}
