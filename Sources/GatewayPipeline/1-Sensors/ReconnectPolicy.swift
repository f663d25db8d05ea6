/// A supervisor's timings: how long it waits before trying again (the daemon's one `Backoff`)
/// and how long each step of a connection may take.
package struct ReconnectPolicy: Sendable {
    /// The wait between failed cycles: from 0.5 s up to `[bluetooth] reconnect_max_backoff_s`.
    package var backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(60))
    /// How long a connected strap may stay silent before the link is dropped and rebuilt
    /// (`[bluetooth] stall_timeout_s`).
    package var stallTimeout: Duration = .seconds(15)
    /// How long to wait for `ServicesResolved` after `Connect()`.
    var servicesTimeout: Duration = .seconds(30)
    /// How long a discovery may run to find a strap bluetoothd does not know.
    var discoveryTimeout: Duration = .seconds(30)
    /// Whether the supervisor may power an adapter on when it finds it off.
    var powerOnAdapter = false
    /// A subscription that ends sooner than this counts as a failure: a strap that connects
    /// and drops again at once backs off instead of hammering the adapter.
    var stableSubscription: Duration = .seconds(10)

    /// Every field given: the memberwise initializer, which Swift would make only `internal`.
    package init(
        backoff: Backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(60)),
        stallTimeout: Duration = .seconds(15),
        servicesTimeout: Duration = .seconds(30),
        discoveryTimeout: Duration = .seconds(30),
        powerOnAdapter: Bool = false,
        stableSubscription: Duration = .seconds(10)
    ) {
        self.backoff = backoff
        self.stallTimeout = stallTimeout
        self.servicesTimeout = servicesTimeout
        self.discoveryTimeout = discoveryTimeout
        self.powerOnAdapter = powerOnAdapter
        self.stableSubscription = stableSubscription
    }
}

extension ReconnectPolicy {
    /// The timings a gateway runs with when the configuration changes none.
    package static let defaults = ReconnectPolicy()
}
