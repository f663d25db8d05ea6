import BlueZSimulator
import Foundation
import GatewayTestSupport
import Glibc
import Testing

/// How `edge-gateway run` starts beside other processes on its state directory: a technician's
/// commands polling it while systemd starts it, and a second `run` by mistake.
@Suite("Daemon start", .serialized)
struct DaemonStartTests {
    @Test(
        "run started while status, queue stats and queue export poll its fresh state directory, five times: the daemon starts every time and every reader answers or says no queue yet"
    )
    func startsWhileToolsPoll() async throws {
        let fixture = try await DaemonFixture.start(straps: 1)
        defer { Task { await fixture.stop() } }
        for round in 0 ..< 5 {
            let files = try FileManager.default.contentsOfDirectory(atPath: fixture.stateDirectory)
            for name in files where name.hasPrefix("queue.sqlite") || name.hasPrefix("held.sqlite") {
                try FileManager.default.removeItem(atPath: fixture.stateDirectory + "/" + name)
            }
            let readers = Task {
                try await withThrowingTaskGroup(of: [(String, GatewayProcess.Result)].self) { group in
                    for command in [["status"], ["queue", "stats", "--json"], ["queue", "export"]] {
                        group.addTask {
                            var results: [(String, GatewayProcess.Result)] = []
                            for _ in 0 ..< 12 { results.append((command.joined(separator: " "), try await fixture.command(command))) }
                            return results
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
            }
            let daemon = try fixture.startDaemon()
            for (command, result) in try await readers.value {
                let fine = result.status == 0 || result.standardError.contains("no queue at")
                #expect(fine, "round \(round), \(command): exit \(result.status): \(result.standardError)")
            }
            try await waitUntil(timeout: .seconds(60), polling: .milliseconds(100)) {
                try daemon.exitStatusIfEnded() != nil || fixture.statusReport()?.pid == daemon.pid
            }
            let log = try fixture.daemonLog().suffix(5)
            #expect(daemon.exitStatusIfEnded() == nil, "round \(round): the daemon exited: \(log)")
            daemon.signal(SIGTERM)
            #expect(try await DaemonFixture.waitForExit(daemon) == 0)
        }
    }

    @Test("adapters naming one the box lacks: exit 78 naming those present, after waiting for it to appear; a name it has starts")
    func unknownAdapterIsRefused() async throws {
        let fixture = try await DaemonFixture.start(straps: 1)
        defer { Task { await fixture.stop() } }
        let start = ContinuousClock.now
        let refused = try await GatewayProcess.run(
            ["run", "--state-dir", fixture.stateDirectory], environment: fixture.environment.merging(["EDGE_GATEWAY_BLUETOOTH_ADAPTERS": "hci0, hci7"]) { $1 })
        #expect(refused.status == 78)
        #expect(
            refused.standardError.contains(
                "[bluetooth] adapters names hci7, which this box does not have (present: hci0); set adapters to \"all\" or to adapters `bluetoothctl list` shows"
            ))
        #expect(start.duration(to: .now) >= .seconds(10), "a dongle still enumerating gets its time")
        #expect(try fixture.statusReport() == nil, "nothing was started")
        let named = try fixture.startDaemon(extra: ["EDGE_GATEWAY_BLUETOOTH_ADAPTERS": "hci0"])
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(100)) { try fixture.statusReport()?.pid == named.pid }
        named.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(named) == 0)
    }

    @Test("no adapter at all: the daemon keeps running, status and doctor say so; a dongle plugged in is used at once")
    func noAdapterAtAll() async throws {
        let fixture = try await DaemonFixture.start(straps: 1, adapters: [])
        defer { Task { await fixture.stop() } }
        let daemon = try fixture.startDaemon()
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(100)) {
            try fixture.statusReport()?.sensors.first?.stateDetail == "waiting: no Bluetooth adapter is present"
        }
        let status = try await fixture.command(["status"])
        #expect(status.outputLines.contains { $0.hasPrefix("adapters: none present") }, "\(status.standardOutput)")
        let doctor = try await fixture.command(["doctor"])
        #expect(doctor.outputLines.contains { $0.hasPrefix("✗ adapter: no Bluetooth adapter (none at all) — plug in the Bluetooth dongle") })
        #expect(daemon.exitStatusIfEnded() == nil)
        await fixture.bluetoothd.addAdapter(.hci0)
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) { try fixture.statusReport()?.sensors.first?.samplesDelivered ?? 0 > 0 }
        #expect(try fixture.statusReport()?.adapters.map(\.name) == ["hci0"])
        daemon.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(daemon) == 0)
    }

    @Test("a second run on the same state directory is refused with exit 3, naming the first's pid, and the first goes on")
    func secondRunIsRefused() async throws {
        let fixture = try await DaemonFixture.start(straps: 1)
        defer { Task { await fixture.stop() } }
        let first = try fixture.startDaemon()
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(100)) { try fixture.statusReport()?.pid == first.pid }
        let second = try await fixture.command(["run"])
        #expect(second.status == 3)
        #expect(second.standardError.contains("another edge-gateway run (pid \(first.pid)) is using the state directory"))
        #expect(second.standardError.contains("code=gateway.already-running"))
        #expect(first.exitStatusIfEnded() == nil)
        first.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(first) == 0)
        let again = try fixture.startDaemon()
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(100)) { try fixture.statusReport()?.pid == again.pid }
        again.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(again) == 0)
    }
}
