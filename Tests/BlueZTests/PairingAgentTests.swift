import BlueZ
import BlueZSimulator
import DBus
import GatewayTestSupport
import Synchronization
import Testing

@Suite("The pairing agent, and bluez's agent rules as the simulator keeps them")
struct PairingAgentTests {
    static let agentPath: DBusObjectPath = "/org/edgegateway/test_agent"

    /// Calls the agent's `method` as bluetoothd would, from a connection of its own.
    static func ask(
        _ agent: PairingAgent, _ method: String, _ arguments: [DBusValue], from asker: DBusConnection
    ) async -> DBusError? {
        do {
            _ = try await asker.call(
                destination: agent.connection.uniqueName, path: agent.path, interface: "org.bluez.Agent1", member: method, arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test("confirms and authorizes only for the device it was told about, refuses passkeys and PINs, and reports each question")
    func answersOnlyForItsDevice() async throws {
        let fixture = try await SimulatorFixture.start()
        let strap: DBusObjectPath = "/org/bluez/hci0/dev_F0_1D_2E_3C_00_01"
        let other: DBusObjectPath = "/org/bluez/hci0/dev_F0_1D_2E_3C_00_02"
        let asked = Mutex<[PairingAgent.Request]>([])
        let agent = PairingAgent(connection: fixture.client.connection, path: Self.agentPath, accepting: { $0 == strap }) { request in
            asked.withLock { $0.append(request) }
        }
        try await agent.register()
        let asker = try await DBusConnection.connect(.address(fixture.bus.address))
        defer { asker.close() }

        #expect(await Self.ask(agent, "RequestConfirmation", [.objectPath(strap), .uint32(123_456)], from: asker) == nil)
        #expect(await Self.ask(agent, "AuthorizeService", [.objectPath(strap), .string("0000180d-0000-1000-8000-00805f9b34fb")], from: asker) == nil)
        #expect(await Self.ask(agent, "RequestAuthorization", [.objectPath(other)], from: asker)?.name == "org.bluez.Error.Rejected")
        let passkey = await Self.ask(agent, "RequestPasskey", [.objectPath(strap)], from: asker)
        #expect(passkey?.name == "org.bluez.Error.Rejected")
        #expect(passkey?.message.contains("no display and no keyboard") == true)
        #expect(await Self.ask(agent, "RequestPinCode", [.objectPath(strap)], from: asker)?.name == "org.bluez.Error.Rejected")
        #expect(
            asked.withLock { $0 }.map { "\($0.method) \($0.device.lastElement) \($0.accepted)" } == [
                "RequestConfirmation dev_F0_1D_2E_3C_00_01 true", "AuthorizeService dev_F0_1D_2E_3C_00_01 true",
                "RequestAuthorization dev_F0_1D_2E_3C_00_02 false", "RequestPasskey dev_F0_1D_2E_3C_00_01 false",
                "RequestPinCode dev_F0_1D_2E_3C_00_01 false",
            ])
    }

    @Test("registers as NoInputNoOutput, becomes the default only when asked, and is gone from bluetoothd after unregister")
    func registersAndUnregisters() async throws {
        let fixture = try await SimulatorFixture.start()
        let agent = PairingAgent(connection: fixture.client.connection, path: Self.agentPath, accepting: { _ in true })
        try await agent.register()
        let owner = fixture.client.connection.uniqueName
        #expect(await fixture.simulator.registeredAgents.map { "\($0.owner) \($0.path) \($0.capability)" } == ["\(owner) \(Self.agentPath) NoInputNoOutput"])
        await #expect(throws: BlueZError.self) { try await agent.register() }
        await agent.unregister()
        #expect(await fixture.simulator.registeredAgents.isEmpty)
        await agent.unregister()
        try await agent.register(asDefault: true)
        #expect(await fixture.simulator.registeredAgents.count == 1)
    }

    @Test("bluez's rules: one agent per client, known capabilities only, default only once registered, forgotten when the client leaves")
    func agentManagerRules() async throws {
        let fixture = try await SimulatorFixture.start()
        let client = try await DBusConnection.connect(.address(fixture.bus.address))
        func manager(_ member: String, _ arguments: [DBusValue]) async -> String? {
            do {
                _ = try await client.call(
                    destination: BlueZName.service, path: BlueZName.root, interface: BlueZName.agentManager, member: member, arguments)
                return nil
            } catch {
                return error.name
            }
        }
        #expect(await manager("RegisterAgent", [.objectPath(Self.agentPath), .string("Telepathy")]) == "org.bluez.Error.InvalidArguments")
        #expect(await manager("RequestDefaultAgent", [.objectPath(Self.agentPath)]) == "org.bluez.Error.DoesNotExist")
        #expect(await manager("RegisterAgent", [.objectPath(Self.agentPath), .string("")]) == nil)
        #expect(await fixture.simulator.registeredAgents.first?.capability == "KeyboardDisplay")
        #expect(await manager("RegisterAgent", [.objectPath("/other"), .string("NoInputNoOutput")]) == "org.bluez.Error.AlreadyExists")
        #expect(await manager("UnregisterAgent", [.objectPath("/other")]) == "org.bluez.Error.DoesNotExist")
        #expect(await manager("RequestDefaultAgent", [.objectPath(Self.agentPath)]) == nil)
        client.close()
        #expect(await eventually { await fixture.simulator.registeredAgents.isEmpty })
    }

    @Test("Pair() is answered by the caller's own agent when it has one, else by the default agent")
    func pairingUsesTheCallersAgent() async throws {
        let fixture = try await SimulatorFixture.start()
        let foreign = try await DBusConnection.connect(.address(fixture.bus.address))
        defer { foreign.close() }
        let desktop = PairingAgent(connection: foreign, path: "/desktop/agent", accepting: { _ in true })
        try await desktop.register(asDefault: true)
        let first = await fixture.simulator.strapAddresses[0]
        let second = await fixture.simulator.strapAddresses[1]

        try await fixture.connect(first).pair()
        #expect(await fixture.simulator.pairingAgent(for: first)?.owner == foreign.uniqueName)

        let own = PairingAgent(connection: fixture.client.connection, path: Self.agentPath, accepting: { _ in true })
        try await own.register()
        try await fixture.connect(second).pair()
        #expect(await fixture.simulator.pairingAgent(for: second)?.owner == fixture.client.connection.uniqueName)
    }
}
