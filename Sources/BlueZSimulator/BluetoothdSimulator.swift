import BlueZ
import DBus
import GATTHeartRate
import Glibc

/// A simulated `bluetoothd` (bluez 5.66) on a bus: adapters, LE heart-rate straps and the
/// behaviour the gateway depends on, including its failures.
///
/// It exports `org.bluez` as the real daemon does (ObjectManager at `/`, `Adapter1`, `Device1`,
/// `GattService1`/`GattCharacteristic1`, `Battery1`), follows the real connect sequence
/// (`Connected` → GATT objects → `ServicesResolved`), ties notify sessions to the connection
/// that started them, answers with the real error names, and lets tests inject faults: link
/// drops, failing connects, daemon restarts (new object paths), adapter power loss, stalled
/// straps, malformed frames and notification storms.
package actor BluetoothdSimulator {
    /// The bus address the simulator connects to.
    package nonisolated let busAddress: String
    var connection: DBusConnection?
    var straps: [BluetoothAddress: StrapState] = [:]
    /// The adapters present, by name.
    var adapters: [String: AdapterState] = [:]
    /// Registered pairing agents: client unique name → its agent (one per client, as in bluez).
    var agents: [String: SimulatedAgent] = [:]
    /// Clients whose agent asked to be the default, most recent last.
    var defaultAgentOwners: [String] = []
    /// The agent bluetoothd would have asked during each strap's last `Pair()`, if any.
    var pairingAgents: [BluetoothAddress: SimulatedAgent] = [:]
    var ownerWatcher: Task<Void, Never>?
    /// Increments on every start, changing GATT handles like a different firmware would.
    var generation = -1

    /// A simulator for `straps` on the bus at `busAddress`, with `adapters` (hci0 alone unless
    /// given); call `start()` to bring it up. With `devicesKnownAtStart`, the straps have device
    /// objects on the first adapter from the start, as devices bluetoothd has bonded with or
    /// cached do; otherwise they appear through discovery.
    package init(
        busAddress: String, straps: [SimulatedStrap], devicesKnownAtStart: Bool = false, adapters: [SimulatedAdapter] = [.hci0]
    ) {
        self.busAddress = busAddress
        for adapter in adapters { self.adapters[adapter.name] = AdapterState(adapter: adapter) }
        let home = adapters.first?.name ?? "hci0"
        for strap in straps {
            var state = StrapState(strap: strap, home: home)
            state.remembered = devicesKnownAtStart
            self.straps[strap.address] = state
        }
    }

    // MARK: Lifecycle

    /// Connects, takes the name `org.bluez` and exports the adapter (and the devices it already
    /// knows: paired or trusted ones survive restarts, as bluetoothd stores them).
    package func start() async throws {
        guard connection == nil else { return }
        let connection = try await DBusConnection.connect(.address(busAddress))
        self.connection = connection
        generation += 1
        await connection.addObjectManager(at: .root)
        await connection.export(BlueZName.root, [agentManagerInterface()])
        for name in adapters.keys.sorted() { await exportAdapter(name) }
        try await watchClientsLeaving(connection)
        try await connection.requestName(BlueZName.service)
    }

    /// Stops like a crashed or restarted bluetoothd: the name vanishes with every object, all
    /// links drop, and notify and discovery sessions are forgotten.
    package func stop() async {
        guard let connection else { return }
        ownerWatcher?.cancel()
        for name in adapters.keys {
            adapters[name]?.discoveryTask?.cancel()
            adapters[name]?.discoveryTask = nil
            adapters[name]?.discoverySessions.removeAll()
        }
        agents.removeAll()
        defaultAgentOwners.removeAll()
        for address in straps.keys { endLink(address) }
        for address in straps.keys {
            straps[address]?.objects = []
            straps[address]?.gatt = nil
        }
        connection.close()
        _ = await connection.isClosed
        self.connection = nil
    }

    /// `stop()` then `start()`: clients see the name vanish and return, with new GATT paths.
    package func restart() async throws {
        await stop()
        try await start()
    }

    /// Notify and discovery sessions belong to the client connection that started them: when it
    /// leaves the bus, they end.
    private func watchClientsLeaving(_ connection: DBusConnection) async throws {
        let changes = try await connection.signals(
            matching: DBusMatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged"))
        ownerWatcher = Task { [weak self] in
            for await change in changes {
                guard change.body.count == 3, let name = change.body[0].string, name.hasPrefix(":"),
                    change.body[2].string == ""
                else { continue }
                await self?.clientLeft(name)
            }
        }
    }

    private func clientLeft(_ name: String) async {
        agentOwnerLeft(name)
        for adapter in adapters.keys.sorted() where adapters[adapter]?.discoverySessions.removeValue(forKey: name) != nil {
            if adapters[adapter]?.discoverySessions.isEmpty == true { await discoveryStopped(on: adapter) }
        }
        for address in straps.keys where straps[address]!.notifySessions.contains(name) {
            await endNotifySession(address, sender: name)
        }
    }

    // MARK: Queries for tests

    /// Notifications delivered for the strap so far (both transports).
    package func notificationsSent(to address: BluetoothAddress) -> Int {
        straps[address]?.notificationsSent ?? 0
    }

    /// Notifications dropped because an `AcquireNotify` client did not read them in time.
    package func notificationsDropped(for address: BluetoothAddress) -> Int {
        straps[address]?.notificationsDropped ?? 0
    }

    /// The connections holding notify sessions on the strap's 0x2A37.
    package func notifySessionOwners(_ address: BluetoothAddress) -> Set<String> {
        var owners = straps[address]?.notifySessions ?? []
        if let acquired = straps[address]?.acquired { owners.insert(acquired.owner) }
        return owners
    }

    /// Whether the strap is connected.
    package func isConnected(_ address: BluetoothAddress) -> Bool {
        straps[address]?.connected ?? false
    }

    /// The adapter the strap is connected through, if it is.
    package func adapter(of address: BluetoothAddress) -> String? {
        straps[address]?.via
    }

    /// The adapters present, by name.
    package var adapterNames: [String] { adapters.keys.sorted() }

    /// The straps this simulator knows.
    package var strapAddresses: [BluetoothAddress] { straps.keys.sorted() }

    /// The strap's `Device1` object under `adapter`.
    static func devicePath(_ address: BluetoothAddress, on adapter: String) -> DBusObjectPath {
        BlueZName.root.appending(adapter).appending("dev_" + address.description.split(separator: ":").joined(separator: "_"))
    }
}
