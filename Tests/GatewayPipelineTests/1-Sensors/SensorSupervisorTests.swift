import BlueZ
import BlueZSimulator
import DBus
import GATTHeartRate
@testable import GatewayPipeline
import GatewayTestSupport
import Testing

@Suite("Sensor supervisor against the simulated bluetoothd")
struct SensorSupervisorTests {
    @Test("discovers an unknown strap, connects, reads its details and turns every frame into a stamped sample")
    func subscribesAndStamps() async throws {
        let fixture = try await SupervisorFixture.start()
        let (address, supervisor, task) = await fixture.supervise()
        defer { task.cancel() }
        #expect(await fixture.samplesArrive(for: address, count: 5))
        #expect(await supervisor.state == .subscribed)
        let sample = try #require(fixture.collector.samples.first)
        #expect(sample.patientID == "40006")
        #expect(sample.captured.monotonicNanoseconds > 0 && sample.captured.wallClockNanoseconds > 1_700_000_000_000_000_000)
        #expect(Set(fixture.collector.samples.map(\.id)).count == (fixture.collector.samples.count))
        let details = await supervisor.details
        #expect(
            details == DeviceDetails(name: "Polar H10 0001", bodySensorLocation: .chest, batteryPercent: 95, manufacturer: "Polar Electro Oy", model: "H10"))
    }

    @Test("resumes notifications after the link drops mid-stream, every time")
    func resumesAfterLinkDrop() async throws {
        let fixture = try await SupervisorFixture.start(knownAtStart: true)
        let (address, supervisor, task) = await fixture.supervise()
        defer { task.cancel() }
        #expect(await fixture.samplesArrive(for: address))
        for _ in 0 ..< 3 {
            await fixture.simulator.dropLink(address)
            let restored = ContinuousClock.now
            #expect(await fixture.samplesArrive(for: address, count: 1))
            print("link restored → next sample: \(restored.duration(to: .now))")
        }
        #expect(await supervisor.reconnects >= 3)
    }

    @Test("resumes after bluetoothd restarts with new object paths")
    func resumesAfterDaemonRestart() async throws {
        let fixture = try await SupervisorFixture.start(knownAtStart: true)
        let (address, _, task) = await fixture.supervise()
        defer { task.cancel() }
        #expect(await fixture.samplesArrive(for: address))
        try await fixture.simulator.restart()
        #expect(await fixture.samplesArrive(for: address))
    }

    @Test("waits while the adapter is off and resumes when it comes back")
    func waitsForAdapterPower() async throws {
        let fixture = try await SupervisorFixture.start(knownAtStart: true)
        let (address, supervisor, task) = await fixture.supervise()
        defer { task.cancel() }
        #expect(await fixture.samplesArrive(for: address))
        await fixture.simulator.setAdapterPowered(false)
        #expect(await eventually { await supervisor.state == .waiting("adapter hci0 is powered off") })
        await fixture.simulator.setAdapterPowered(true)
        #expect(await fixture.samplesArrive(for: address))
    }

    @Test("powers the adapter on itself when the configuration allows it")
    func powersAdapterOn() async throws {
        let fixture = try await SupervisorFixture.start(knownAtStart: true)
        await fixture.simulator.setAdapterPowered(false)
        var policy = SupervisorFixture.fastPolicy
        policy.powerOnAdapter = true
        let (address, _, task) = await fixture.supervise(policy: policy)
        defer { task.cancel() }
        #expect(await fixture.samplesArrive(for: address))
    }

    @Test("reconnects a strap that stays connected but stops notifying")
    func reconnectsStalledStrap() async throws {
        let fixture = try await SupervisorFixture.start(knownAtStart: true)
        let (address, supervisor, task) = await fixture.supervise()
        defer { task.cancel() }
        #expect(await fixture.samplesArrive(for: address))
        await fixture.simulator.stallNotifications(address, true)
        #expect(
            await eventually {
                fixture.collector.events.contains { if case .stalled = $0 { true } else { false } }
            })
        await fixture.simulator.stallNotifications(address, false)
        #expect(await fixture.samplesArrive(for: address))
        #expect(await supervisor.reconnects >= 1)
    }

    @Test("subscribes without a failed cycle when the GATT objects trail ServicesResolved, as real bluez 5.66 does")
    func gattObjectsAfterServicesResolved() async throws {
        let fixture = try await SupervisorFixture.start(knownAtStart: true)
        let address = await fixture.simulator.strapAddresses[0]
        await fixture.simulator.exportGattAfterServicesResolved(address, lag: .seconds(2))
        let (_, _, task) = await fixture.supervise()
        defer { task.cancel() }
        #expect(await fixture.samplesArrive(for: address))
        let retried = fixture.collector.events.contains {
            if case .retrying = $0 { true } else { false }
        }
        #expect(!retried)
    }

    @Test("retries transient connect failures with backoff and counts malformed frames without stopping")
    func transientFailuresAndMalformedFrames() async throws {
        let fixture = try await SupervisorFixture.start(knownAtStart: true)
        let address = await fixture.simulator.strapAddresses[0]
        await fixture.simulator.failNextConnect(address, with: DBusError(name: "org.bluez.Error.InProgress", message: "In Progress"))
        await fixture.simulator.queueFrames([[0x10], [0x11, 0x50], [0x10, 0x4E]], for: address)
        let (_, supervisor, task) = await fixture.supervise()
        defer { task.cancel() }
        #expect(await fixture.samplesArrive(for: address))
        #expect(await supervisor.malformedFrames == 3)
        let retried = fixture.collector.events.contains {
            if case .retrying(_, let reason, let transient, _, _) = $0 { reason.contains("InProgress") && transient } else { false }
        }
        #expect(retried)
    }

    @Test("backs off from a strap that drops right after each subscription instead of reconnecting at once")
    func backsOffFromFlappingStrap() async throws {
        let fixture = try await SupervisorFixture.start(knownAtStart: true)
        var policy = SupervisorFixture.fastPolicy
        policy.stableSubscription = .seconds(3600)
        let (address, supervisor, task) = await fixture.supervise(policy: policy)
        defer { task.cancel() }
        for _ in 0 ..< 3 {
            #expect(await fixture.samplesArrive(for: address, count: 1))
            await fixture.simulator.dropLink(address)
        }
        #expect(
            await eventually {
                fixture.collector.events.filter {
                    if case .retrying(_, let reason, true, _, _) = $0 { reason.contains("after subscribing") } else { false }
                }.count >= 3
            })
        #expect(await supervisor.reconnects >= 3)
    }

    @Test("runs ten straps at once without exceeding the adapter's parallel connection limit")
    func tenStraps() async throws {
        let fixture = try await SupervisorFixture.start(straps: 10, parallelConnects: 2)
        let addresses = await fixture.simulator.strapAddresses
        let tasks = addresses.map { address in
            let supervisor = fixture.supervisor(for: address)
            return Task { await supervisor.run() }
        }
        defer { tasks.forEach { $0.cancel() } }
        for address in addresses {
            #expect(await fixture.samplesArrive(for: address), "\(address)")
        }
        #expect(await fixture.slots.peak["hci0"] ?? 0 <= 2)
        #expect(await fixture.slots.peak["hci0"] ?? 0 >= 1)
    }
}
