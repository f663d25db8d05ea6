/// How long to wait before trying again, for everything the daemon retries: reconnecting a
/// strap and re-sending a batch to JHE.
///
/// Exponential, capped, with "equal jitter": the wait before attempt `n` (from 0) is half the
/// capped step `initial × 2ⁿ` plus a random part up to the other half. It never collapses to
/// zero, and it spreads the retries of many straps after a shared outage (an adapter reset, a
/// bluetoothd restart), or of many gateways after a server outage, so they do not all arrive
/// at once.
package struct Backoff: Sendable, Equatable {
    /// The first step.
    var initial: Duration
    /// The largest step.
    package var maximum: Duration

    /// A backoff from `initial` doubling up to `maximum`.
    package init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait before attempt `attempt` (0-based), between half the capped step and the step.
    func delay(attempt: Int, using random: inout some RandomNumberGenerator) -> Duration {
        let step = min(maximum.seconds, initial.seconds * Double(1 << min(max(attempt, 0), 30)))
        let seconds = step / 2 + Double.random(in: 0 ... (step / 2), using: &random)
        return .nanoseconds(Int64(seconds * 1e9))
    }
}
