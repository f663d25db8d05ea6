import GATTHeartRate
@testable import GatewayPipeline
import GatewayTestSupport
import PipelineTestSupport
import Testing

/// Supervisors sharing one placement over several adapters of the in-memory radio: where each
/// strap connects, what happens when an adapter goes or holds fewer than configured.
@Suite("Supervisors on several adapters")
struct SupervisorPlacementTests {
    typealias Recorder = SupervisorStateMachineTests.Recorder
    static let straps = (1 ... 3).map { BluetoothAddress("F0:1D:2E:3C:03:0\($0)")! }

    /// hci0 and hci1, each strap heard at `rssi` on hci0 and 10 dB weaker on hci1.
    static func radio(holding limit: Int? = nil, rssi: [Int] = [-50, -55, -60]) async -> InMemoryStrapRadio {
        let radio = InMemoryStrapRadio()
        await radio.set("hci0", .ready, holding: limit)
        await radio.set("hci1", .ready, holding: limit)
        for (address, strength) in zip(straps, rssi) {
            await radio.add(address) { $0.rssi = ["hci0": strength, "hci1": strength - 10] }
        }
        return radio
    }

    /// One supervisor per strap, sharing one placement. `oneByOne` starts each only once the
    /// one before is subscribed, so the layout follows the RSSI alone: started together, a strap
    /// placed while another connects sees that adapter 10 points lower, and the order is the
    /// scheduler's.
    static func supervise(
        _ radio: InMemoryStrapRadio, plan: AdapterPlan, recorders: [Recorder], oneByOne: Bool = false
    ) async throws -> (placement: AdapterPlacement, tasks: [Task<Void, Never>]) {
        let placement = AdapterPlacement(plan: plan)
        var tasks: [Task<Void, Never>] = []
        for (address, recorder) in zip(straps, recorders) {
            tasks.append(SupervisorStateMachineTests.supervise(address, radio: radio, placement: placement, plan: plan, recorder: recorder).1)
            if oneByOne { try await waitUntil { await radio.isSubscribed(address) } }
        }
        return (placement, tasks)
    }

    static func links(_ radio: InMemoryStrapRadio) async -> [String?] {
        var links: [String?] = []
        for address in straps { links.append(await radio.isSubscribed(address) ? await radio.adapter(of: address) : nil) }
        return links
    }

    @Test("three straps on two adapters holding two each are placed 2 + 1, the best heard first")
    func twoPlusOne() async throws {
        let radio = await Self.radio()
        let recorders = Self.straps.map { _ in Recorder() }
        let (placement, tasks) = try await Self.supervise(radio, plan: AdapterPlan(maxConnections: 2), recorders: recorders, oneByOne: true)
        #expect(await Self.links(radio) == ["hci0", "hci0", "hci1"])
        let loads = await placement.loads(of: ["hci0", "hci1"])
        #expect(loads.map(\.slotsUsed) == [2, 1] && loads.map(\.connects) == [2, 1])
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        #expect(await placement.loads(of: ["hci0", "hci1"]).allSatisfy { $0.straps.isEmpty }, "every slot released on stop")
    }

    @Test("an adapter unplugged: one of its straps moves to the free slot, the other waits saying so, and returns when it is back")
    func adapterLost() async throws {
        let radio = await Self.radio()
        let recorders = Self.straps.map { _ in Recorder() }
        let (_, tasks) = try await Self.supervise(radio, plan: AdapterPlan(maxConnections: 2), recorders: recorders, oneByOne: true)
        #expect(await Self.links(radio) == ["hci0", "hci0", "hci1"])
        await radio.set("hci0", .absent)
        try await waitUntil {
            let links = await Self.links(radio)
            return links.filter { $0 == "hci1" }.count == 2 && links.contains(nil)
        }
        let waiting = zip(await Self.links(radio), recorders).first { $0.0 == nil }!.1
        try await waitUntil { waiting.states.last == "waiting: no free connection slot on hci1" }
        #expect(recorders.allSatisfy { $0.retries.isEmpty }, "an adapter going is not a strap failure")
        await radio.set("hci0", .ready)
        try await waitUntil { await Self.links(radio).allSatisfy { $0 != nil } }
        #expect(await Self.links(radio).filter { $0 == "hci0" }.count == 1, "the waiting strap takes hci0; nothing else moves")
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    @Test("a controller holding fewer than configured: its abort counts as no slot, and the strap goes to the other adapter without a failure")
    func controllerFullEarly() async throws {
        let radio = await Self.radio(holding: 1)
        let recorders = Self.straps.map { _ in Recorder() }
        let (placement, tasks) = try await Self.supervise(radio, plan: AdapterPlan(maxConnections: 5), recorders: recorders)
        try await waitUntil { await Self.links(radio).filter { $0 != nil }.count == 2 }
        #expect(Set(await Self.links(radio).compactMap { $0 }) == ["hci0", "hci1"])
        let third = zip(await Self.links(radio), recorders).first { $0.0 == nil }!.1
        try await waitUntil { third.states.last?.hasPrefix("waiting: no free connection slot on hci0, hci1") == true }
        #expect(recorders.allSatisfy { $0.retries.isEmpty }, "a full controller is not the strap's fault")
        let loads = await placement.loads(of: ["hci0", "hci1"])
        #expect(loads.map(\.slots) == [1, 1] && loads.reduce(0) { $0 + $1.slotRefusals } >= 1)
        #expect(await radio.peakLinks == ["hci0": 1, "hci1": 1])
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    @Test("named adapters: one the box lacks is waited for, named with those present; another adapter is left alone")
    func namedAdapters() async throws {
        let radio = await Self.radio()
        let recorder = Recorder()
        let plan = AdapterPlan(names: ["hci2"])
        let placement = AdapterPlacement(plan: plan)
        let (_, task) = SupervisorStateMachineTests.supervise(Self.straps[0], radio: radio, placement: placement, plan: plan, recorder: recorder)
        try await waitUntil { recorder.states.last == "waiting: adapter hci2 is not present (present: hci0, hci1)" }
        await radio.set("hci2", .ready)
        try await waitUntil { await Self.links(radio)[0] == "hci2" }
        task.cancel()
        await task.value
    }
}
