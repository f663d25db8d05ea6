import BlueZ
import BlueZSimulator
import GATTHeartRate
import GatewayTestSupport
import Synchronization
import Testing

@Suite("Heart Rate Measurement notifications against the simulated bluetoothd")
struct NotificationTests {
    static let scripted: [[UInt8]] = (0 ..< 20).map { [0x16, UInt8(60 + $0), 0x00, 0x04] }

    /// A connected strap whose notifications are held back, and its 0x2A37 characteristic.
    static func connectedQuietStrap() async throws -> (SimulatorFixture, BluetoothAddress, GattCharacteristic) {
        let fixture = try await SimulatorFixture.start()
        let address = await fixture.simulator.strapAddresses[0]
        let device = try await fixture.connect(address)
        let measurement = try #require(await device.characteristic(BluetoothUUID.heartRateMeasurement.uuidString))
        await fixture.simulator.stallNotifications(address, true)
        return (fixture, address, measurement)
    }

    /// Lets the held-back strap notify, `scripted` first.
    static func releaseScriptedFrames(on fixture: SimulatorFixture, from address: BluetoothAddress) async {
        await fixture.simulator.queueFrames(scripted, for: address)
        await fixture.simulator.stallNotifications(address, false)
    }

    @Test(
        "delivers scripted frames in order over each transport",
        arguments: [true, false])
    func framesInOrder(preferAcquire: Bool) async throws {
        let (fixture, address, measurement) = try await Self.connectedQuietStrap()
        let notifications = try await measurement.notifications(preferAcquire: preferAcquire)
        #expect(notifications.transport == (preferAcquire ? .acquired(mtu: 23) : .propertiesChanged))
        await Self.releaseScriptedFrames(on: fixture, from: address)
        let frames = await collect(20, from: notifications.frames)
        #expect(frames == Self.scripted)
        notifications.stop()
    }

    @Test(
        "hands frames to a handler in order over each transport; the frames stream yields none and ends with the link",
        arguments: [true, false])
    func handlerTakesFrames(preferAcquire: Bool) async throws {
        let (fixture, address, measurement) = try await Self.connectedQuietStrap()
        let received = Mutex<[[UInt8]]>([])
        let notifications = try await measurement.notifications(preferAcquire: preferAcquire) { frame, _ in
            received.withLock { $0.append(frame) }
        }
        await Self.releaseScriptedFrames(on: fixture, from: address)
        #expect(await eventually { received.withLock { $0.count } >= Self.scripted.count })
        #expect(received.withLock { Array($0.prefix(Self.scripted.count)) } == Self.scripted)
        await fixture.simulator.dropLink(address)
        var yielded = 0
        for await _ in notifications.frames { yielded += 1 }
        #expect(yielded == 0)
    }

    @Test("values gathered from the AcquireNotify socket say how long ago the kernel received them")
    func socketValuesCarryTheirArrival() async throws {
        let (fixture, address, measurement) = try await Self.connectedQuietStrap()
        let received = Mutex<[(frame: [UInt8], age: UInt64, handedAt: ContinuousClock.Instant)]>([])
        let notifications = try await measurement.notifications { frame, age in
            received.withLock { $0.append((frame, age, .now)) }
        }
        #expect(notifications.transport == .acquired(mtu: 23))
        // A value every 50 ms, gathered every 200 ms as the daemon's intake would: the values
        // wait in the kernel, stamped, for the gather.
        let released = ContinuousClock.now
        await Self.releaseScriptedFrames(on: fixture, from: address)
        let sockets = fixture.client.notificationSockets
        sockets.observe { _ in }
        #expect(
            await eventually(polling: .milliseconds(200)) {
                _ = sockets.gather()
                return received.withLock { $0.count } >= Self.scripted.count
            })
        let values = received.withLock { Array($0.prefix(Self.scripted.count)) }
        #expect(values.map(\.frame) == Self.scripted)
        // Each arrival falls between the release and the hand-over.
        for value in values { #expect(value.handedAt - .nanoseconds(Int64(value.age)) >= released) }
        #expect(values.contains { $0.age >= 10_000_000 }, "values that waited for a gather say so")
        notifications.stop()
    }

    @Test("values the gatherer leaves ungathered (a stalled storage thread) are read by the bus thread, a few seconds late at most")
    func ungatheredSocketIsReadByTheBusThread() async throws {
        let (fixture, address, measurement) = try await Self.connectedQuietStrap()
        fixture.client.notificationSockets.observe { _ in }
        let received = Mutex<[[UInt8]]>([])
        let notifications = try await measurement.notifications { frame, _ in received.withLock { $0.append(frame) } }
        await Self.releaseScriptedFrames(on: fixture, from: address)
        #expect(await eventually { received.withLock { $0.count } >= Self.scripted.count })
        #expect(received.withLock { Array($0.prefix(Self.scripted.count)) } == Self.scripted)
        notifications.stop()
    }

    @Test("falls back to StartNotify when bluetoothd does not offer AcquireNotify")
    func fallbackWithoutAcquire() async throws {
        var strap = SimulatedStrap.fleet(count: 1, notificationInterval: .milliseconds(50))[0]
        strap.offersAcquireNotify = false
        let fixture = try await SimulatorFixture.start(straps: [strap])
        let device = try await fixture.connect(strap.address)
        let measurement = try #require(await device.characteristic(BluetoothUUID.heartRateMeasurement.uuidString))
        let notifications = try await measurement.notifications()
        #expect(notifications.transport == .propertiesChanged)
        let frames = await collect(3, from: notifications.frames)
        #expect(frames.count == 3)
        #expect(frames.allSatisfy { (try? HeartRateMeasurement.decode($0)) != nil })
    }

    @Test("ties a notify session to the connection that started it: it ends when that connection leaves")
    func sessionEndsWithConnection() async throws {
        let fixture = try await SimulatorFixture.start()
        let address = await fixture.simulator.strapAddresses[0]
        _ = try await fixture.connect(address)
        let other = try await BlueZClient.connect(.address(fixture.bus.address))
        guard await other.wait(timeout: .seconds(30), until: { $0.device(address: address.description) != nil }),
            let device = await other.device(address: address.description),
            let measurement = await device.characteristic(BluetoothUUID.heartRateMeasurement.uuidString)
        else { throw FixtureError(description: "the second client does not see the strap") }
        _ = try await measurement.notifications(preferAcquire: false)
        #expect(await fixture.simulator.notifySessionOwners(address) == [other.connection.uniqueName])
        await other.close()
        #expect(await eventually { await fixture.simulator.notifySessionOwners(address).isEmpty })
    }

    @Test("ends the stream on link loss; after reconnecting, notifications must be started again and flow")
    func reconnect() async throws {
        let fixture = try await SimulatorFixture.start()
        let address = await fixture.simulator.strapAddresses[0]
        let device = try await fixture.connect(address)
        for round in 0 ..< 3 {
            let measurement = try #require(await device.characteristic(BluetoothUUID.heartRateMeasurement.uuidString))
            let notifications = try await measurement.notifications(preferAcquire: round % 2 == 0)
            #expect(await collect(2, from: notifications.frames).count == 2, "round \(round)")
            await fixture.simulator.dropLink(address)
            for await _ in notifications.frames {}
            #expect(await !fixture.simulator.isConnected(address))
            try await device.connect()
            #expect(await device.waitForServicesResolved(timeout: .seconds(30)))
        }
    }

    @Test("sees a bluetoothd restart: objects vanish, return with new GATT paths, and are found again by UUID")
    func daemonRestart() async throws {
        let fixture = try await SimulatorFixture.start()
        let address = await fixture.simulator.strapAddresses[0]
        let device = try await fixture.connect(address)
        try await device.pair()
        let before = try #require(await device.characteristic(BluetoothUUID.heartRateMeasurement.uuidString))
        let notifications = try await before.notifications()
        let events = await fixture.client.events()
        try await fixture.simulator.restart()
        var sawStop = false
        for await event in events {
            if event == .daemonStopped { sawStop = true }
            if event == .daemonStarted { break }
        }
        #expect(sawStop)
        for await _ in notifications.frames {}
        let starts = await fixture.client.daemonStarts
        #expect(starts == 2)
        let again = try #require(await fixture.client.device(address: address.description), "a paired device survives the restart")
        try await again.connect()
        #expect(await again.waitForServicesResolved(timeout: .seconds(30)))
        let after = try #require(await again.characteristic(BluetoothUUID.heartRateMeasurement.uuidString))
        #expect(after.path != before.path)
        #expect(await collect(2, from: try await after.notifications().frames).count == 2)
    }

    @Test("passes malformed frames through unchanged (decoding is the caller's job) and survives a storm")
    func malformedAndStorm() async throws {
        let fixture = try await SimulatorFixture.start()
        let address = await fixture.simulator.strapAddresses[0]
        let device = try await fixture.connect(address)
        let measurement = try #require(await device.characteristic(BluetoothUUID.heartRateMeasurement.uuidString))
        await fixture.simulator.stallNotifications(address, true)
        let notifications = try await measurement.notifications()
        await fixture.simulator.queueFrames([[0x10], [0x11, 0x50]], for: address)
        await fixture.simulator.stallNotifications(address, false)
        let malformed = await collect(2, from: notifications.frames)
        #expect(malformed == [[0x10], [0x11, 0x50]])
        await fixture.simulator.notificationStorm(address, count: 500)
        let storm = await collect(500, from: notifications.frames)
        #expect(storm.count == 500)
    }
}
