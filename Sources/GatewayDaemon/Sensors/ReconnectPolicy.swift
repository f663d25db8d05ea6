/// A supervisor's timings: how long it waits before trying again (the daemon's one `Backoff`)
/// and how long each step of a connection may take.
public struct ReconnectPolicy: Sendable {
    /// The wait between failed cycles: from 0.5 s up to `[bluetooth] reconnect_max_backoff_s`.
    var backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(60))
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
}

extension ReconnectPolicy {
    /// The timings a gateway runs with when the configuration changes none.
    public static let defaults = ReconnectPolicy()
}
