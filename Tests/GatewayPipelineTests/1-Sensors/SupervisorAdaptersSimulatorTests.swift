import BlueZ
import BlueZSimulator
import GATTHeartRate
@testable import GatewayPipeline
import GatewayTestSupport
import Testing

/// Supervisors over `BlueZStrapRadio` on a simulated bluetoothd with several adapters: what the
/// in-memory radio's placement tests prove, through the real D-Bus objects (a device object per
/// adapter, discovery per adapter, controllers that abort the connect they cannot hold).
@Suite("Supervisors on several simulated adapters")
struct SupervisorAdaptersSimulatorTests {
    /// Which adapter each strap streams through now (nil: not subscribed).
    static func links(_ fixture: SupervisorFixture, _ straps: [BluetoothAddress], _ supervisors: [SensorSupervisor]) async -> [String?] {
        var links: [String?] = []
        for (address, supervisor) in zip(straps, supervisors) {
            links.append(await supervisor.state == .subscribed ? await fixture.simulator.adapter(of: address) : nil)
        }
        return links
    }

    /// A supervisor for each of the fixture's straps, running.
    static func superviseAll(_ fixture: SupervisorFixture) async -> ([BluetoothAddress], [SensorSupervisor], [Task<Void, Never>]) {
        let straps = await fixture.simulator.strapAddresses
        var supervisors: [SensorSupervisor] = []
        var tasks: [Task<Void, Never>] = []
        for index in straps.indices {
            let (_, supervisor, task) = await fixture.supervise(strap: index)
            supervisors.append(supervisor)
            tasks.append(task)
        }
        return (straps, supervisors, tasks)
    }

    @Test("three straps, two adapters holding two: 2 + 1 by signal; one unplugged: a strap moves, the third waits; plugged back: all stream")
    func placementAndAdapterLoss() async throws {
        let fixture = try await SupervisorFixture.start(
            straps: 3, adapters: [SimulatedAdapter(name: "hci0", maxConnections: 2), SimulatedAdapter(name: "hci1", maxConnections: 2)],
            plan: AdapterPlan(maxConnections: 2)
        ) { straps in
            for index in straps.indices { straps[index].rssiByAdapter = ["hci1": straps[index].rssi - 20] }
        }
        defer { fixture.bus.stop() }
        let (straps, supervisors, tasks) = await Self.superviseAll(fixture)
        try await waitUntil { await Self.links(fixture, straps, supervisors).allSatisfy { $0 != nil } }
        let placed = await Self.links(fixture, straps, supervisors)
        #expect(placed.filter { $0 == "hci0" }.count == 2 && placed.filter { $0 == "hci1" }.count == 1, "\(placed)")
        for address in straps { #expect(await fixture.samplesArrive(for: address)) }

        await fixture.simulator.removeAdapter("hci0")
        try await waitUntil {
            let links = await Self.links(fixture, straps, supervisors)
            return links.filter { $0 == "hci1" }.count == 2 && links.contains(nil)
        }
        let waiting = try #require(zip(await Self.links(fixture, straps, supervisors), supervisors).first { $0.0 == nil }?.1)
        try await waitUntil { await waiting.state == .waiting("no free connection slot on hci1") }
        await fixture.simulator.addAdapter(SimulatedAdapter(name: "hci0", maxConnections: 2))
        try await waitUntil { await Self.links(fixture, straps, supervisors).allSatisfy { $0 != nil } }
        for address in straps { #expect(await fixture.samplesArrive(for: address)) }
        let retried = fixture.collector.events.filter { if case .retrying = $0 { true } else { false } }
        #expect(retried.isEmpty, "neither the unplugged adapter nor a full one is a strap failure: \(retried)")
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    @Test("a controller that holds one link though the plan says five: its abort counts as no slot, and the strap goes to the other adapter")
    func controllerSmallerThanPlanned() async throws {
        let fixture = try await SupervisorFixture.start(
            straps: 2, adapters: [SimulatedAdapter(name: "hci0", maxConnections: 1), .init(name: "hci1")], plan: AdapterPlan()
        ) { straps in
            for index in straps.indices { straps[index].rssiByAdapter = ["hci1": straps[index].rssi - 20] }
        }
        defer { fixture.bus.stop() }
        let (straps, supervisors, tasks) = await Self.superviseAll(fixture)
        try await waitUntil { await Self.links(fixture, straps, supervisors).allSatisfy { $0 != nil } }
        #expect(Set(await Self.links(fixture, straps, supervisors).compactMap { $0 }) == ["hci0", "hci1"])
        let loads = await fixture.placement.loads(of: ["hci0", "hci1"])
        #expect(loads[0].slotRefusals >= 1 && loads[0].failures == 0, "\(loads)")
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }
}
