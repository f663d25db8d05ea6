import BlueZ
import BlueZSimulator
import GATTHeartRate
@testable import GatewayPipeline
import GatewayTestSupport
import Synchronization

/// Collects what supervisors produce, in the order they produce it: samples arrive on the bus
/// thread and events on the supervisor, and both are recorded as they are handed over.
final class SampleCollector: Sendable {
    private let collected = Mutex<(samples: [HeartRateSample], events: [SensorEvent])>(([], []))

    var samples: [HeartRateSample] { collected.withLock { $0.samples } }
    var events: [SensorEvent] { collected.withLock { $0.events } }

    func add(_ sample: HeartRateSample) { collected.withLock { $0.samples.append(sample) } }
    func add(_ event: SensorEvent) { collected.withLock { $0.events.append(event) } }

    func count(for address: BluetoothAddress) -> Int {
        collected.withLock { $0.samples.lazy.filter { $0.sensor == address }.count }
    }
}

/// A simulated bluetoothd with straps, a BlueZ client, and supervisors with fast timings.
struct SupervisorFixture: Sendable {
    let bus: PrivateBus
    let simulator: BluetoothdSimulator
    let client: BlueZClient
    let collector = SampleCollector()
    let slots: ConnectionSlots
    /// The adapters the supervisors may use and how many links each may hold.
    let plan: AdapterPlan
    let placement: AdapterPlacement
    let discovery = DiscoverySessions()

    static let fastPolicy = ReconnectPolicy(
        backoff: Backoff(initial: .milliseconds(50), maximum: .milliseconds(500)), stallTimeout: .seconds(1),
        servicesTimeout: .seconds(20), discoveryTimeout: .seconds(20), stableSubscription: .zero)

    /// `straps` on the simulated `adapters` (hci0 alone, holding any number of links, unless
    /// given), supervised under `plan` (by default: any adapter, 32 links each).
    static func start(
        straps: Int = 1, knownAtStart: Bool = false, parallelConnects: Int = 3, adapters: [SimulatedAdapter] = [.hci0],
        plan: AdapterPlan = AdapterPlan(maxConnections: 32), configure: (inout [SimulatedStrap]) -> Void = { _ in }
    ) async throws -> SupervisorFixture {
        let bus = try PrivateBus()
        var fleet = SimulatedStrap.fleet(count: straps, notificationInterval: .milliseconds(50))
        configure(&fleet)
        let simulator = BluetoothdSimulator(busAddress: bus.address, straps: fleet, devicesKnownAtStart: knownAtStart, adapters: adapters)
        try await simulator.start()
        let client = try await BlueZClient.connect(.address(bus.address))
        return SupervisorFixture(
            bus: bus, simulator: simulator, client: client, slots: ConnectionSlots(limit: parallelConnects), plan: plan,
            placement: AdapterPlacement(plan: plan))
    }

    func supervisor(for address: BluetoothAddress, policy: ReconnectPolicy = fastPolicy) -> SensorSupervisor {
        let collector = collector
        return SensorSupervisor(
            address: address, patientID: "40006", radio: BlueZStrapRadio(client: client, discovery: discovery), plan: plan,
            placement: placement, policy: policy, slots: slots, clock: CaptureClock(),
            onSample: { collector.add($0) },
            onEvent: { collector.add($0) })
    }

    /// Starts supervising the `index`th strap; cancel the returned task to stop.
    func supervise(strap index: Int = 0, policy: ReconnectPolicy = fastPolicy) async
        -> (address: BluetoothAddress, supervisor: SensorSupervisor, task: Task<Void, Never>)
    {
        let address = await simulator.strapAddresses[index]
        let supervisor = supervisor(for: address, policy: policy)
        return (address, supervisor, Task { await supervisor.run() })
    }

    /// Waits until `address` has produced `count` more samples than it had.
    func samplesArrive(for address: BluetoothAddress, count: Int = 3) async -> Bool {
        let start = collector.count(for: address)
        return await eventually { collector.count(for: address) >= start + count }
    }
}
