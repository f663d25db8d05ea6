import Foundation
import GATTHeartRate
import GatewayConfiguration
@testable import GatewayPipeline
import GatewayTestSupport
import PipelineTestSupport
import Synchronization
import Testing

/// The supervisor's state machine against an in-memory radio: no bus, no simulator, timings in
/// tens of milliseconds. The same paths against a simulated bluetoothd on a private bus are in
/// `SensorSupervisorTests`.
@Suite("Sensor supervisor state machine")
struct SupervisorStateMachineTests {
    static let strap = BluetoothAddress("F0:1D:2E:3C:00:01")!
    static let frame: [UInt8] = [0x16, 72, 0x00, 0x03]

    static let policy = ReconnectPolicy(
        backoff: Backoff(initial: .milliseconds(40), maximum: .milliseconds(400)), stallTimeout: .seconds(30),
        servicesTimeout: .seconds(5), discoveryTimeout: .seconds(5), stableSubscription: .zero)

    /// What a supervisor reported, in the order it reported it.
    final class Recorder: Sendable {
        private let recorded = Mutex<(samples: [HeartRateSample], events: [SensorEvent])>(([], []))

        func add(_ sample: HeartRateSample) { recorded.withLock { $0.samples.append(sample) } }
        func add(_ event: SensorEvent) { recorded.withLock { $0.events.append(event) } }
        var samples: [HeartRateSample] { recorded.withLock { $0.samples } }
        var events: [SensorEvent] { recorded.withLock { $0.events } }

        /// The backoffs reported: reason, transient, delay, failures in a row.
        var retries: [(reason: String, transient: Bool, after: Duration, failures: Int)] {
            events.compactMap {
                if case .retrying(_, let reason, let transient, let after, let failures) = $0 { (reason, transient, after, failures) } else { nil }
            }
        }

        /// The states passed through, by name or with their detail for waiting.
        var states: [String] {
            events.compactMap { if case .stateChanged(_, let state) = $0 { state.description } else { nil } }
        }
    }

    /// A supervisor for `address` over `radio`, running until the returned task is cancelled.
    static func supervise(
        _ address: BluetoothAddress = strap, radio: InMemoryStrapRadio, policy: ReconnectPolicy = policy,
        slots: ConnectionSlots = ConnectionSlots(limit: 3), placement: AdapterPlacement = AdapterPlacement(plan: AdapterPlan()),
        plan: AdapterPlan = AdapterPlan(), recorder: Recorder
    ) -> (SensorSupervisor, Task<Void, Never>) {
        let supervisor = SensorSupervisor(
            address: address, patientID: "40006", radio: radio, plan: plan, placement: placement, policy: policy, slots: slots,
            clock: CaptureClock(), onSample: { recorder.add($0) }, onEvent: { recorder.add($0) })
        return (supervisor, Task { await supervisor.run() })
    }

    /// Supervises `strap` over `radio` until `condition` holds, then stops the supervisor.
    static func supervise(
        radio: InMemoryStrapRadio, policy: ReconnectPolicy = policy, recorder: Recorder, until condition: () async throws -> Bool
    ) async throws {
        let (_, task) = supervise(radio: radio, policy: policy, recorder: recorder)
        try await waitUntil(condition)
        task.cancel()
        await task.value
    }

    static func subscriptions(_ radio: InMemoryStrapRadio, _ address: BluetoothAddress = strap) async -> Int {
        await radio.subscriptions[address, default: 0]
    }

    @Test("a known strap is connected and subscribed, its details reported, and every frame becomes a sample for its patient")
    func subscribes() async throws {
        let radio = InMemoryStrapRadio()
        await radio.add(Self.strap)
        let recorder = Recorder()
        let (_, task) = Self.supervise(radio: radio, recorder: recorder)
        try await waitUntil { await Self.subscriptions(radio) == 1 }
        for _ in 0 ..< 3 { await radio.send(Self.frame, from: Self.strap) }
        try await waitUntil { recorder.samples.count == 3 }
        task.cancel()
        await task.value
        #expect(recorder.samples.allSatisfy { $0.patientID == "40006" && $0.sensor == Self.strap && $0.measurement.bpm == 72 })
        #expect(recorder.states.starts(with: ["connecting", "resolving-services", "subscribed"]))
        #expect(recorder.events.contains { if case .deviceInfo(_, let details) = $0 { details.batteryPercent == 80 } else { false } })
        #expect(recorder.retries.isEmpty)
    }

    @Test("transient connect failures back off with doubling, jittered delays, reported as transient and counted in a row, until the connect works")
    func transientFailuresBackOff() async throws {
        let radio = InMemoryStrapRadio()
        await radio.add(Self.strap) {
            $0.connectFailures = Array(repeating: SupervisorError("Connect failed: le-connection-abort-by-local", transient: true), count: 4)
        }
        let recorder = Recorder()
        try await Self.supervise(radio: radio, recorder: recorder) { await Self.subscriptions(radio) == 1 }
        let retries = recorder.retries
        #expect(retries.count == 4)
        #expect(retries.allSatisfy { $0.transient && $0.reason.contains("le-connection-abort-by-local") })
        #expect(retries.map(\.failures) == [1, 2, 3, 4])
        for (attempt, retry) in retries.enumerated() {
            let step = min(Duration.milliseconds(400), .milliseconds(40) * (1 << attempt))
            #expect(retry.after >= step / 2 && retry.after <= step, "attempt \(attempt): \(retry.after) outside \(step / 2)…\(step)")
        }
        #expect(await radio.connectAttempts[Self.strap] == 5)
    }

    @Test("a strap without 0x2A37 is reported as not transient, disconnected, and tried again later")
    func noHeartRateCharacteristic() async throws {
        let radio = InMemoryStrapRadio()
        await radio.add(Self.strap) { $0.hasHeartRate = false }
        let recorder = Recorder()
        try await Self.supervise(radio: radio, recorder: recorder) { recorder.retries.count >= 2 }
        #expect(recorder.retries.allSatisfy { !$0.transient && $0.reason.contains("no Heart Rate Measurement characteristic (0x2A37)") })
        #expect(await radio.disconnects[Self.strap, default: 0] >= 2)
    }

    @Test("a subscribed strap that goes silent past the stall timeout is disconnected and subscribed again")
    func stalledStrapIsReconnected() async throws {
        let radio = InMemoryStrapRadio()
        await radio.add(Self.strap)
        var policy = Self.policy
        policy.stallTimeout = .milliseconds(300)
        let recorder = Recorder()
        try await Self.supervise(radio: radio, policy: policy, recorder: recorder) { await Self.subscriptions(radio) >= 2 }
        #expect(recorder.events.contains { if case .stalled(let address) = $0 { address == Self.strap } else { false } })
        #expect(await radio.disconnects[Self.strap, default: 0] >= 1)
    }

    @Test("a strap that drops right after subscribing backs off with growing delays; with a stable link it would not")
    func flappingStrapBacksOff() async throws {
        let radio = InMemoryStrapRadio()
        await radio.add(Self.strap)
        // Discovery and service timeouts far above what a loaded machine can stall a task for:
        // a retry of their own would not be one of the drops counted here. So is the stable
        // time: a subscription the test drops late (its task starved for seconds under `make
        // test`) must still count as a flap, or no retry follows and the wait below times out.
        // The waits say "at least", so that a retry too many fails the expectations below
        // instead of a wait.
        var policy = Self.policy
        policy.stableSubscription = .seconds(120)
        policy.discoveryTimeout = .seconds(120)
        policy.servicesTimeout = .seconds(120)
        let recorder = Recorder()
        let (_, task) = Self.supervise(radio: radio, policy: policy, recorder: recorder)
        for drop in 1 ... 3 {
            try await waitUntil { await Self.subscriptions(radio) >= drop }
            await radio.dropLink(Self.strap)
            try await waitUntil { recorder.retries.count >= drop }
        }
        task.cancel()
        await task.value
        let retries = recorder.retries
        #expect(retries.count == 3)
        #expect(retries.allSatisfy { $0.transient && $0.reason.contains("dropped") && $0.reason.contains("after subscribing") })
        #expect(retries[2].after >= .milliseconds(80), "the third backoff is at least half of 160 ms")

        let stable = InMemoryStrapRadio()
        await stable.add(Self.strap)
        let quiet = Recorder()
        policy.stableSubscription = .zero
        let (_, again) = Self.supervise(radio: stable, policy: policy, recorder: quiet)
        try await waitUntil { await Self.subscriptions(stable) >= 1 }
        await stable.dropLink(Self.strap)
        try await waitUntil { await Self.subscriptions(stable) >= 2 }
        again.cancel()
        await again.value
        #expect(quiet.retries.isEmpty, "a drop after a stable subscription reconnects at once")
    }

    @Test("bluetoothd gone, the adapter gone or off: the supervisor waits, says why, and resubscribes when it is back")
    func adapterLoss() async throws {
        let radio = InMemoryStrapRadio()
        await radio.add(Self.strap)
        let recorder = Recorder()
        let (_, task) = Self.supervise(radio: radio, recorder: recorder)
        try await waitUntil { await Self.subscriptions(radio) == 1 }
        for (readiness, reason) in [
            (AdapterReadiness.noDaemon, "waiting: bluetoothd is not running"), (.absent, "waiting: no Bluetooth adapter is present"),
            (.poweredOff, "waiting: adapter hci0 is powered off"),
        ] {
            let before = await Self.subscriptions(radio)
            await radio.set("hci0", readiness)
            try await waitUntil { recorder.states.last == reason }
            await radio.set("hci0", .ready)
            try await waitUntil { await Self.subscriptions(radio) == before + 1 }
        }
        task.cancel()
        await task.value
        #expect(await radio.powerOns == 0, "the adapter is powered on only when the configuration allows it")
    }

    @Test("with power_on_adapter the supervisor switches an adapter that is off on and subscribes")
    func powersAdapterOn() async throws {
        let radio = InMemoryStrapRadio()
        await radio.add(Self.strap)
        await radio.set("hci0", .poweredOff)
        var policy = Self.policy
        policy.powerOnAdapter = true
        let recorder = Recorder()
        try await Self.supervise(radio: radio, policy: policy, recorder: recorder) { await Self.subscriptions(radio) == 1 }
        #expect(await radio.powerOns == 1)
        #expect(recorder.states.first == "waiting: adapter hci0 is off; powering it on")
    }

    @Test("an unknown strap is discovered; one discovery cannot find is a transient failure, retried until it appears")
    func discovery() async throws {
        let radio = InMemoryStrapRadio()
        await radio.add(Self.strap) {
            $0.known = false
            $0.discoverable = false
        }
        let recorder = Recorder()
        let (_, task) = Self.supervise(radio: radio, recorder: recorder)
        try await waitUntil { recorder.retries.count >= 2 }
        #expect(recorder.retries.allSatisfy { $0.transient && $0.reason.contains("was not found by discovery") })
        #expect(recorder.states.contains("discovering"))
        await radio.add(Self.strap) { $0.discoverable = true }
        try await waitUntil { await Self.subscriptions(radio) == 1 }
        task.cancel()
        await task.value
    }

    @Test("eight straps on one adapter never have more connect attempts in flight than the slots allow")
    func connectionSlots() async throws {
        let radio = InMemoryStrapRadio()
        let addresses = (1 ... 8).map { BluetoothAddress("F0:1D:2E:3C:01:0\($0)")! }
        for address in addresses { await radio.add(address) { $0.connectTime = .milliseconds(50) } }
        let slots = ConnectionSlots(limit: 2)
        let recorder = Recorder()
        let tasks = addresses.map { Self.supervise($0, radio: radio, slots: slots, recorder: recorder).1 }
        try await waitUntil {
            var all = true
            for address in addresses where await Self.subscriptions(radio, address) == 0 { all = false }
            return all
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        #expect(await radio.peakConnects == 2)
        #expect(await slots.peak["hci0"] == 2)
    }

    /// Holds whoever waits until it opens.
    private actor Gate {
        private var isOpen = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            if !isOpen { await withCheckedContinuation { waiters.append($0) } }
        }

        func open() {
            isOpen = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }

    @Test("an adapter given its own limit of connects at once keeps to it while the others keep to the common one")
    func connectionSlotsByAdapter() async throws {
        let configuration = try ConfigurationLoader.load(
            text: "[bluetooth]\nmax_parallel_connects = 3\nmax_parallel_connects_by_adapter = \"hci1=1\"\n", path: "/cfg/gateway.toml",
            environment: [:])
        let slots = ConnectionSlots(plan: AdapterPlan(configuration.bluetooth))
        let gate = Gate()
        let attempts = (0 ..< 8).map { index in
            Task { await slots.withSlot(on: index % 2 == 0 ? "hci0" : "hci1") { await gate.wait() } }
        }
        try await waitUntil { await slots.peak == ["hci0": 3, "hci1": 1] }
        await gate.open()
        for attempt in attempts { await attempt.value }
        #expect(await slots.peak == ["hci0": 3, "hci1": 1])
    }

    @Test("cancelling ends a backoff at once, and ending a subscription by cancelling is not counted as a drop")
    func cancellation() async throws {
        let radio = InMemoryStrapRadio()
        await radio.add(Self.strap) { $0.connectFailures = [SupervisorError("Connect failed: InProgress", transient: true)] }
        var policy = Self.policy
        policy.backoff = Backoff(initial: .seconds(3600), maximum: .seconds(3600))
        let recorder = Recorder()
        let (backingOff, task) = Self.supervise(radio: radio, policy: policy, recorder: recorder)
        try await waitUntil { recorder.retries.count == 1 }
        let start = ContinuousClock.now
        task.cancel()
        await task.value
        #expect(start.duration(to: .now) < .seconds(60), "an hour's backoff ended with the task")
        #expect(await backingOff.reconnects == 0)

        let subscribed = InMemoryStrapRadio()
        await subscribed.add(Self.strap)
        let (supervisor, running) = Self.supervise(radio: subscribed, recorder: Recorder())
        try await waitUntil { await Self.subscriptions(subscribed) == 1 }
        running.cancel()
        await subscribed.dropLink(Self.strap)
        await running.value
        #expect(await supervisor.reconnects == 0)
    }
}
