import GATTHeartRate
import GatewayConfiguration

/// Which of the box's adapters the gateway uses, how many connections each may hold and how
/// many it may attempt at once (`[bluetooth] adapters`, `max_connections`,
/// `max_parallel_connects` and their `_by_adapter` exceptions).
///
/// A controller holds only a few LE connections and rarely says how many: five is Home
/// Assistant's figure for a local adapter, and what the gateway assumes unless told.
package struct AdapterPlan: Sendable, Equatable {
    /// The adapters to use by name; nil for every adapter the box has, as they come and go.
    package var names: [String]?
    /// The connections any adapter may hold unless `maxConnectionsByAdapter` names it.
    package var maxConnections: Int
    /// Per-adapter limits, for a dongle known to hold more (or a Pi's UART controller, fewer).
    package var maxConnectionsByAdapter: [String: Int]
    /// The connects any adapter may attempt at once unless `maxParallelConnectsByAdapter` names it.
    package var maxParallelConnects: Int
    /// Per-adapter limits of connects at once (1 for a controller that fails a second one).
    package var maxParallelConnectsByAdapter: [String: Int]

    /// Every adapter (`names` nil) or the named ones, with these limits.
    package init(
        names: [String]? = nil, maxConnections: Int = 5, maxConnectionsByAdapter: [String: Int] = [:],
        maxParallelConnects: Int = 2, maxParallelConnectsByAdapter: [String: Int] = [:]
    ) {
        self.names = names
        self.maxConnections = max(1, maxConnections)
        self.maxConnectionsByAdapter = maxConnectionsByAdapter
        self.maxParallelConnects = max(1, maxParallelConnects)
        self.maxParallelConnectsByAdapter = maxParallelConnectsByAdapter
    }

    /// The plan `[bluetooth]` sets.
    package init(_ bluetooth: GatewayConfiguration.Bluetooth) {
        self.init(
            names: bluetooth.adapterNames, maxConnections: bluetooth.maxConnections, maxConnectionsByAdapter: bluetooth.connectionLimits,
            maxParallelConnects: bluetooth.maxParallelConnects, maxParallelConnectsByAdapter: bluetooth.parallelConnectLimits)
    }

    /// Whether the gateway may use the adapter called `name`.
    package func selects(_ name: String) -> Bool {
        names?.contains(name) ?? true
    }

    /// The connections the adapter `name` may hold.
    package func capacity(of name: String) -> Int {
        max(1, maxConnectionsByAdapter[name] ?? maxConnections)
    }

    /// The connects the adapter `name` may attempt at once.
    package func parallelConnects(on name: String) -> Int {
        max(1, maxParallelConnectsByAdapter[name] ?? maxParallelConnects)
    }
}

/// One adapter of the box as the Bluetooth stack shows it.
package struct RadioAdapter: Sendable, Equatable {
    /// `hci0`.
    package let name: String
    /// The controller's address (`00:1A:7D:DA:71:13`), when the stack reports one.
    package let address: String?
    /// Whether it is powered on.
    package let powered: Bool

    /// An adapter as the stack reports it.
    package init(name: String, address: String?, powered: Bool) {
        self.name = name
        self.address = address
        self.powered = powered
    }
}

/// What one adapter knows of one strap: how well it hears it and whether it holds its bond.
package struct StrapSighting: Sendable, Equatable {
    /// The adapter.
    package let adapter: String
    /// The signal strength that adapter last saw from the strap, in dBm; nil when unseen there.
    package let rssi: Int?
    /// Whether the strap is bonded (paired) on that adapter: a bond belongs to one controller.
    package let bonded: Bool

    /// What `adapter` reports of a strap: unseen and not bonded unless given.
    package init(adapter: String, rssi: Int? = nil, bonded: Bool = false) {
        self.adapter = adapter
        self.rssi = rssi
        self.bonded = bonded
    }
}
