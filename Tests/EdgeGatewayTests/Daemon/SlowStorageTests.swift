import BlueZSimulator
import Foundation
import GatewayTestSupport
import Glibc
import Testing

/// A card that stalls: every fsync of the daemon held for seconds by an LD_PRELOAD shim
/// (`Fixtures/slow_fsync.c`, compiled here with the toolchain's clang), while two straps stream.
/// Commits run on the storage thread, so the process loop must go on meanwhile.
@Suite("Daemon slow storage", .serialized)
struct SlowStorageTests {
    @Test(
        "6 s per fsync for 30 s: watchdog pings keep coming, status answers and says storage is slow, one warning; afterwards nothing is lost or stored twice"
    )
    func stallingCard() async throws {
        let fixture = try await DaemonFixture.start(straps: 2, interval: .milliseconds(100))
        defer { Task { await fixture.stop() } }
        let stalling = try await StallingDaemon.start(fixture, fsyncMilliseconds: 0)
        let (daemon, receiver) = (stalling.process, stalling.notifications)
        #expect(try await receiver.receive().contains("READY=1"))
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) {
            try (fixture.statusReport()?.sensors ?? []).allSatisfy { $0.samplesDelivered > 0 }
        }

        try stalling.stall(milliseconds: 6000)
        let stallStarted = ContinuousClock.now
        var last = ContinuousClock.now
        var longestGap = Duration.zero
        var sawSlow = false
        while stallStarted.duration(to: .now) < .seconds(30) {
            let datagram = try await receiver.receive()
            guard datagram.contains("WATCHDOG=1") else { continue }
            longestGap = max(longestGap, last.duration(to: .now))
            last = .now
            let status = try await fixture.command(["status"])
            #expect(status.status == 0 || status.status == 1, "status: \(status.standardError)")
            sawSlow = sawSlow || status.standardOutput.contains("slow: the last commit took")
        }
        try stalling.stall(milliseconds: 0)
        print("slow storage: longest gap between watchdog pings while every fsync took 6 s: \(longestGap)")
        #expect(longestGap < .seconds(12), "the watchdog went unpinged for \(longestGap) (WatchdogSec is 20 s: a ping is due every 10 s)")
        #expect(sawSlow, "status never said storage was slow")

        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) {
            try fixture.daemonLog().contains { $0.contains("queue commits are fast again") }
        }
        daemon.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(daemon) == 0)
        let log = try fixture.daemonLog()
        #expect(log.count { $0.contains("queue commits are slow") } == 1)
        let queued = try await fixture.queuedSampleIDs()
        let stored = try await fixture.serverSamples().map(\.id)
        #expect(Set(stored).count == stored.count, "the server stored a sample twice")
        let accepted = try fixture.acceptedSampleIDs()
        let lost = accepted.subtracting(queued).subtracting(stored)
        #expect(!accepted.isEmpty && lost.isEmpty, "\(lost.count) of \(accepted.count) accepted samples lost")
    }

    @Test("a fresh queue on a card that stalls every fsync 0.7 s: systemd is asked for more start time before READY=1, which follows")
    func slowStartAsksForTime() async throws {
        let fixture = try await DaemonFixture.start(straps: 1)
        defer { Task { await fixture.stop() } }
        let stalling = try await StallingDaemon.start(fixture, fsyncMilliseconds: 700)
        let (daemon, receiver) = (stalling.process, stalling.notifications)
        let first = try await receiver.receive()
        #expect(first.contains("EXTEND_TIMEOUT_USEC=") && first.contains("STATUS=opening the queue"), "first datagram: \(first)")
        var ready = false
        while !ready { ready = try await receiver.receive().contains("READY=1") }
        try stalling.stall(milliseconds: 0)
        daemon.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(daemon) == 0)
    }
}

/// A fixture's daemon under the fsync shim (`Fixtures/slow_fsync.c`, built with the toolchain's
/// clang), with systemd's notify socket and a 20 s watchdog (the unit gives 30 s): a ping is
/// then due every 10 s, so a process loop held up by a 6 s fsync shows as a gap over 12 s.
struct StallingDaemon {
    let process: ChildProcess
    /// What the daemon tells systemd.
    let notifications: DatagramReceiver
    private let delayFile: String

    /// Starts the daemon with every fsync waiting `fsyncMilliseconds` (0: none).
    static func start(_ fixture: DaemonFixture, fsyncMilliseconds: Int, sourceFile: String = #filePath) async throws -> StallingDaemon {
        let shim = fixture.directory.file("slow_fsync.so")
        let source = URL(fileURLWithPath: sourceFile).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/slow_fsync.c").path
        let built = try await GatewayProcess.run(["clang", "-shared", "-fPIC", "-O2", "-o", shim, source, "-ldl"], executable: "/usr/bin/env")
        guard built.status == 0 else { throw FixtureError("cannot build the fsync shim: \(built.standardError)") }
        let delayFile = fixture.directory.file("fsync-delay-ms")
        try String(fsyncMilliseconds).write(toFile: delayFile, atomically: true, encoding: .utf8)
        let notifications = try DatagramReceiver(name: fixture.directory.file("notify"))
        let process = try fixture.startDaemon(extra: [
            "LD_PRELOAD": shim, "EGW_SLOW_FSYNC_FILE": delayFile, "NOTIFY_SOCKET": notifications.name, "WATCHDOG_USEC": "20000000",
        ])
        return StallingDaemon(process: process, notifications: notifications, delayFile: delayFile)
    }

    /// Makes every fsync from now on wait `milliseconds` (0: none); the shim reads it at each call.
    func stall(milliseconds: Int) throws {
        try String(milliseconds).write(toFile: delayFile, atomically: true, encoding: .utf8)
    }

    /// Makes every fsync from now on fail with EIO, as a failing card's do.
    func fail() throws {
        try "EIO".write(toFile: delayFile, atomically: true, encoding: .utf8)
    }
}
