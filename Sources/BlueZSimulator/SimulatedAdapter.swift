import BlueZ
import DBus

/// One Bluetooth controller of the simulated box (`/org/bluez/hciN`).
package struct SimulatedAdapter: Sendable, Equatable {
    /// `hci0`.
    package let name: String
    /// The controller's public address.
    package let address: String
    /// The connections it holds before it aborts new ones as a full controller does
    /// (`le-connection-abort-by-local`); nil for no limit.
    package var maxConnections: Int?

    /// A controller called `name`; its address is derived from the name unless given.
    package init(name: String, address: String? = nil, maxConnections: Int? = nil) {
        self.name = name
        let number = Int(name.dropFirst(3)) ?? 0
        self.address = address ?? "00:1A:7D:DA:71:" + String(format2: 0x13 + number)
        self.maxConnections = maxConnections
    }

    /// The one adapter a simulator has unless told otherwise.
    package static let hci0 = SimulatedAdapter(name: "hci0")

    /// Its object path.
    var path: DBusObjectPath { BlueZName.root.appending(name) }
}

/// What the simulated bluetoothd keeps for one adapter at run time.
struct AdapterState {
    var adapter: SimulatedAdapter
    var powered = true
    /// Discovery sessions on it: client unique name → its filter.
    var discoverySessions: [String: DiscoveryFilter] = [:]
    /// Filters set with `SetDiscoveryFilter` on it, per client, for the client's next `StartDiscovery`.
    var discoveryFilters: [String: DiscoveryFilter] = [:]
    var discoveryTask: Task<Void, Never>?
}

extension String {
    /// Two upper-case hex digits of `value`'s low byte.
    fileprivate init(format2 value: Int) {
        let digits = String(value & 0xFF, radix: 16, uppercase: true)
        self = digits.count == 1 ? "0" + digits : digits
    }
}
