import BlueZ
import DBus
import GATTHeartRate

/// A pairing agent a client registered with the simulator's `org.bluez.AgentManager1`.
package struct SimulatedAgent: Sendable, Equatable {
    /// The client's unique bus name: bluez keeps one agent per client and forgets it when the
    /// client leaves the bus.
    package let owner: String
    /// The agent object's path on the client's connection.
    package let path: DBusObjectPath
    /// The IO capability it registered with (`NoInputNoOutput`, `KeyboardDisplay` …).
    package let capability: String
}

/// `org.bluez.AgentManager1` on `/org/bluez`, with bluez 5.66's rules (src/agent.c): one agent
/// per client, an unknown capability refused, the default agent only one already registered,
/// agents forgotten when their client leaves or bluetoothd restarts. `Pair()` is answered by
/// the caller's own agent, else the default one, else none (`agentForPairing`).
extension BluetoothdSimulator {
    /// The capabilities bluez accepts; an empty string means `KeyboardDisplay`.
    static let agentCapabilities: Set<String> = ["DisplayOnly", "DisplayYesNo", "KeyboardOnly", "NoInputNoOutput", "KeyboardDisplay"]

    func agentManagerInterface() -> DBusExportedInterface {
        let agent = DBusArgument("agent", "o")
        return DBusExportedInterface(
            DBusInterfaceDescription(
                name: BlueZName.agentManager,
                methods: [
                    DBusMethodDescription("RegisterAgent", inputs: [agent, DBusArgument("capability", "s")]) { [weak self] call in
                        try await self.orGone().registerAgent(
                            owner: call.sender, path: call.arguments[0].objectPath ?? .root, capability: call.arguments[1].string ?? "")
                        return []
                    },
                    DBusMethodDescription("UnregisterAgent", inputs: [agent]) { [weak self] call in
                        try await self.orGone().unregisterAgent(owner: call.sender, path: call.arguments[0].objectPath ?? .root)
                        return []
                    },
                    DBusMethodDescription("RequestDefaultAgent", inputs: [agent]) { [weak self] call in
                        try await self.orGone().requestDefaultAgent(owner: call.sender, path: call.arguments[0].objectPath ?? .root)
                        return []
                    },
                ]))
    }

    func registerAgent(owner: String, path: DBusObjectPath, capability: String) throws(DBusError) {
        guard agents[owner] == nil else { throw BlueZReply.alreadyExists }
        let capability = capability.isEmpty ? "KeyboardDisplay" : capability
        guard Self.agentCapabilities.contains(capability) else { throw BlueZReply.invalidArguments }
        agents[owner] = SimulatedAgent(owner: owner, path: path, capability: capability)
    }

    func unregisterAgent(owner: String, path: DBusObjectPath) throws(DBusError) {
        guard agents[owner]?.path == path else { throw BlueZReply.doesNotExist }
        agentOwnerLeft(owner)
    }

    func requestDefaultAgent(owner: String, path: DBusObjectPath) throws(DBusError) {
        guard agents[owner]?.path == path else { throw BlueZReply.doesNotExist }
        defaultAgentOwners.removeAll { $0 == owner }
        defaultAgentOwners.append(owner)
    }

    func agentOwnerLeft(_ owner: String) {
        agents.removeValue(forKey: owner)
        defaultAgentOwners.removeAll { $0 == owner }
    }

    /// The agent bluez asks during a `Pair()` from `caller`: the caller's own, else the default.
    func agentForPairing(by caller: String) -> SimulatedAgent? {
        agents[caller] ?? defaultAgentOwners.last.flatMap { agents[$0] }
    }

    // MARK: Queries for tests

    /// The agents registered now.
    package var registeredAgents: [SimulatedAgent] {
        agents.values.sorted { $0.owner < $1.owner }
    }

    /// The agent bluez would have asked during the strap's last `Pair()`; `nil` if that pairing
    /// had none, or nobody asked to pair.
    package func pairingAgent(for address: BluetoothAddress) -> SimulatedAgent? {
        pairingAgents[address]
    }
}
