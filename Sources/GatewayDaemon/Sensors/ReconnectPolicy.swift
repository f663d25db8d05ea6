/// How long a supervisor waits before trying again: exponential backoff with jitter, capped.
///
/// Jitter spreads the reconnections of many straps after a shared outage (an adapter reset, a
/// bluetoothd restart) so they do not all hit the adapter at once.
public struct ReconnectPolicy: Sendable {
    /// The first delay.
    var initialDelay: Duration = .milliseconds(500)
    /// The cap (`[bluetooth] reconnect_max_backoff_s`).
    var maximumDelay: Duration = .seconds(60)
    /// How long a connected strap may stay silent before the link is dropped and rebuilt
    /// (`[bluetooth] stall_timeout_s`).
    var stallTimeout: Duration = .seconds(15)
    /// How long to wait for `ServicesResolved` after `Connect()`.
    var servicesTimeout: Duration = .seconds(30)
    /// How long a discovery may run to find a strap bluetoothd does not know.
    var discoveryTimeout: Duration = .seconds(30)
    /// Whether the supervisor may power an adapter on when it finds it off.
    var powerOnAdapter = false
    /// A subscription that ends sooner than this counts as a failure: a strap that connects
    /// and drops again at once backs off instead of hammering the adapter.
    var stableSubscription: Duration = .seconds(10)

    /// The delay before attempt `attempt` (0-based): half of the capped exponential step, plus
    /// a random part up to the other half ("equal jitter"), so it never collapses to zero.
    func delay(attempt: Int, using random: inout some RandomNumberGenerator) -> Duration {
        let step = min(maximumDelay.seconds, initialDelay.seconds * Double(1 << min(attempt, 30)))
        let seconds = step / 2 + Double.random(in: 0...(step / 2), using: &random)
        return .nanoseconds(Int64(seconds * 1e9))
    }
}

extension ReconnectPolicy {
    /// The timings a gateway runs with when the configuration changes none.
    public static let defaults = ReconnectPolicy()
}
