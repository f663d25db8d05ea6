import BlueZ
import BlueZSimulator
import GATTHeartRate

/// Notifications per second through the D-Bus layer, for each transport: `AcquireNotify`
/// (a socket, no D-Bus traffic per frame) and `StartNotify` + `PropertiesChanged` (a signal per
/// frame, routed by dbus-daemon). The simulated strap sends a storm; the client counts frames.
/// Run pinned to one core to answer "how much does one core sustain":
/// `taskset -c 0 swift run -c release edge-gateway-bench notify`.
enum NotifyBenchmark {
    static let count = 20_000

    static func run() async {
        for preferAcquire in [true, false] {
            do {
                try await measure(preferAcquire: preferAcquire)
            } catch {
                print("notify: failed: \(error)")
            }
        }
    }

    private static func measure(preferAcquire: Bool) async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let strap = SimulatedStrap.fleet(count: 1, notificationInterval: .seconds(3600))[0]
        let simulator = BluetoothdSimulator(busAddress: bus.address, straps: [strap], devicesKnownAtStart: true)
        try await simulator.start()
        let client = try await BlueZClient.connect(.address(bus.address))
        _ = await client.wait(timeout: .seconds(30)) { $0.device(address: strap.address.description) != nil }
        guard let device = await client.device(address: strap.address.description) else { return }
        try await device.connect()
        _ = await device.waitForServicesResolved(timeout: .seconds(30))
        guard let characteristic = await device.characteristic(BluetoothUUID.heartRateMeasurement.uuidString) else { return }
        let notifications = try await characteristic.notifications(preferAcquire: preferAcquire)

        let cpuBefore = EdgeGatewayBench.cpuSeconds
        let daemonBefore = EdgeGatewayBench.cpuSeconds(ofProcess: bus.daemonPID)
        let clock = ContinuousClock()
        let start = clock.now
        let consumer = Task {
            var received = 0
            var decoded = 0
            for await frame in notifications.frames {
                received += 1
                if (try? HeartRateMeasurement.decode(frame)) != nil { decoded += 1 }
                if received == count { break }
            }
            return (received, decoded)
        }
        let deadline = Task {
            try await Task.sleep(for: .seconds(120))
            consumer.cancel()
        }
        await simulator.notificationStorm(strap.address, count: count)
        let (received, decoded) = await consumer.value
        deadline.cancel()
        let elapsed = start.duration(to: clock.now).seconds
        let cpu = EdgeGatewayBench.cpuSeconds - cpuBefore
        let daemon = EdgeGatewayBench.cpuSeconds(ofProcess: bus.daemonPID) - daemonBefore
        let name = preferAcquire ? "AcquireNotify" : "PropertiesChanged"
        let dropped = await simulator.notificationsDropped(for: strap.address)
        print(
            "notify \(name): \(received) notifications (\(decoded) decoded, \(dropped) dropped by a full socket) in \(DecodeBenchmark.format(elapsed, 3)) s = \(Int(Double(received) / elapsed)) /s; CPU per notification: \(DecodeBenchmark.format(cpu / Double(received) * 1e6, 1)) µs in this process (simulator + client), \(DecodeBenchmark.format(daemon / Double(received) * 1e6, 1)) µs in dbus-daemon"
        )
        notifications.stop()
        await client.close()
        await simulator.stop()
    }
}
