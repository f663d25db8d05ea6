import BlueZSimulator
import Foundation
import GATTHeartRate
@testable import GatewayPipeline
import GatewayTestSupport
import Glibc
import JHESimulator
import Testing

/// SIGTERM (systemd's stop) ends the daemon promptly whatever it is waiting for or retrying: a
/// daemon that sits out a retry loop is killed by systemd after `TimeoutStopSec`, mid-commit.
@Suite("Daemon stop while it waits", .serialized)
struct DaemonStopTests {
    enum Situation: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case serverUnreachable = "the server unreachable (uploads retried with backoff)"
        case strapAbsent = "a bound strap that is nowhere (discovery retried)"
        case noBluetoothd = "no bluetoothd on the bus"
        case noSystemBus = "no system bus (connecting retried)"
        case notEnrolled = "not enrolled"
        case storageFailing = "every fsync failing with EIO (commits retried)"

        var testDescription: String { rawValue }
    }

    @Test("SIGTERM ends the daemon within 15 s, saying it stopped and what it could not keep", arguments: Situation.allCases)
    func stopsWhileWaiting(_ situation: Situation) async throws {
        let fixture = try await DaemonFixture.start(straps: 1, bound: situation == .strapAbsent ? 0 : 1)
        defer { Task { await fixture.stop() } }
        let daemon: ChildProcess
        let inSituation: @Sendable () throws -> Bool
        switch situation {
        case .serverUnreachable:
            await fixture.jhe.setReachable(false)
            daemon = try fixture.startDaemon()
            inSituation = { try fixture.daemonLog().contains { $0.contains("uploads are failing") } }
        case .strapAbsent:
            let nowhere = try #require(BluetoothAddress("F0:00:00:00:00:01"))
            try SensorBindingStore(directory: fixture.stateDirectory)
                .bind(SensorBinding(address: nowhere, alias: nil, patientID: String(JHESimulator.defaultPatientID), addedAt: Date()))
            daemon = try fixture.startDaemon()
            inSituation = { try fixture.daemonLog().contains { $0.contains("state=discovering") } }
        case .noBluetoothd:
            await fixture.bluetoothd.stop()
            daemon = try fixture.startDaemon()
            inSituation = { try fixture.statusReport()?.pid == daemon.pid }
        case .noSystemBus:
            daemon = try fixture.startDaemon(extra: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + fixture.directory.file("no-bus")])
            inSituation = { try fixture.daemonLog().contains { $0.contains("cannot reach the D-Bus system bus; retrying") } }
        case .notEnrolled:
            try FileManager.default.removeItem(atPath: fixture.stateDirectory + "/credentials.json")
            daemon = try fixture.startDaemon()
            inSituation = { try fixture.statusReport()?.pid == daemon.pid && fixture.daemonLog().contains { $0.contains("accepted samples") } }
        case .storageFailing:
            let stalling = try await StallingDaemon.start(fixture, fsyncMilliseconds: 0)
            daemon = stalling.process
            try await waitUntil(timeout: .seconds(60), polling: .milliseconds(100)) {
                try fixture.daemonLog().contains { $0.contains("accepted samples") }
            }
            try stalling.fail()
            inSituation = { try fixture.daemonLog().contains { $0.contains("queue cannot commit") } }
        }
        try await waitUntil(timeout: .seconds(90), polling: .milliseconds(100)) {
            try daemon.exitStatusIfEnded() != nil || inSituation()
        }
        let before = try fixture.daemonLog().suffix(5)
        #expect(daemon.exitStatusIfEnded() == nil, "the daemon ended by itself: \(before)")
        daemon.signal(SIGTERM)
        let status = try await DaemonFixture.waitForExit(daemon, timeout: .seconds(15))
        let log = try fixture.daemonLog()
        let stopped = log.last { $0.contains("edge-gateway stopped") || $0.contains("could not be kept") } ?? "nothing"
        if situation == .storageFailing {
            #expect(ChildProcess.terminationStatus(status) == 73, "wait status \(status); last lines: \(log.suffix(3))")
            #expect(stopped.contains("could not be kept"), "\(stopped)")
        } else {
            #expect(status == 0, "wait status \(status); last lines: \(log.suffix(3))")
            #expect(stopped.contains("every accepted sample is on disk"), "\(stopped)")
        }
    }
}
