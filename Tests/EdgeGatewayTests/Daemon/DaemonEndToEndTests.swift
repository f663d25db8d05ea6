import BlueZSimulator
import Foundation
import GATTHeartRate
@testable import GatewayCommandLine
import GatewayTestSupport
import Glibc
import JHESimulator
import PipelineTestSupport
import Testing

/// `edge-gateway run` as a process between a simulated bluetoothd and a simulated JHE: what a
/// deployed gateway must do through crashes, outages, lost grants and withdrawn consent.
@Suite("Daemon end to end", .serialized)
struct DaemonEndToEndTests {
    @Test("samples flow from the straps to JHE as valid OMH/FHIR, and SIGTERM stops the daemon cleanly")
    func samplesFlowAndShutdownIsClean() async throws {
        let fixture = try await DaemonFixture.start(straps: 2)
        defer { Task { await fixture.stop() } }
        let daemon = try fixture.startDaemon()
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) { await fixture.jhe.storedCount() >= 20 }
        daemon.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(daemon) == 0)
        let accepted = try fixture.acceptedSampleIDs()
        let stored = try await fixture.serverSamples()
        #expect(Set(stored.map(\.id)).isSubset(of: accepted))
        #expect(await fixture.jhe.counters.refusedEntries == 0)
        let report = try #require(try fixture.statusReport())
        #expect(report.sensors.count == 2)
        #expect(report.sensors.allSatisfy { $0.samplesDelivered > 0 })
    }

    @Test("a strap paired while the daemon runs is picked up; systemd hears READY=1 and WATCHDOG=1; /metrics counts the samples")
    func pairedWhileRunningAndOperable() async throws {
        let fixture = try await DaemonFixture.start(straps: 2, bound: 1)
        defer { Task { await fixture.stop() } }
        let receiver = try DatagramReceiver(name: fixture.directory.file("notify"))
        let port = try Self.freeLoopbackPort()
        let daemon = try fixture.startDaemon(extra: [
            "NOTIFY_SOCKET": receiver.name, "WATCHDOG_USEC": "4000000", "EDGE_GATEWAY_METRICS_LISTEN": "127.0.0.1:\(port)",
        ])
        let first = try await receiver.receive()
        #expect(first.contains("READY=1") && first.contains("WATCHDOG=1") && first.contains("STATUS="))
        // SIGHUP (`systemctl reload`, `queue retry-dead`) means "look again": the daemon goes on
        // and exits 0 below.
        daemon.signal(SIGHUP)
        let second = fixture.straps[1]
        let paired = try await fixture.command(["pair", second.description, "--patient", String(JHESimulator.defaultPatientID)])
        #expect(paired.status == 0, "\(paired.standardError)")
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) {
            let sensors = try fixture.statusReport()?.sensors ?? []
            return sensors.count == 2 && sensors.allSatisfy { $0.samplesDelivered > 0 }
        }
        let metrics = try await LoopbackHTTP.get("http://127.0.0.1:\(port)/metrics")
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(metrics.status == 200)
        #expect(text.contains("edge_gateway_samples_delivered_total{sensor=\"\(second)\"}"))
        #expect(text.contains("edge_gateway_adapter_slots{adapter=\"hci0\",state=\"used\"} 2"), "both straps placed on the one adapter")
        let report = try #require(try fixture.statusReport())
        #expect(report.sensors.allSatisfy { $0.adapter == "hci0" })
        #expect(report.adapters.map(\.name) == ["hci0"] && report.adapters.first?.powered == true && report.adapters.first?.connects == 2)
        daemon.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(daemon) == 0)
    }

    /// A loopback port nobody listens on right now (bound, read back, released).
    static func freeLoopbackPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw FixtureError("cannot find a free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test("kill -9 at random moments, ten times: every accepted sample reaches JHE exactly once")
    func killNineNeverLosesOrDuplicatesAcceptedSamples() async throws {
        let fixture = try await DaemonFixture.start(straps: 2, interval: .milliseconds(100))
        defer { Task { await fixture.stop() } }
        var random = SplitMix64(seed: 0x5EED_7A11)
        for _ in 0 ..< 10 {
            let before = try fixture.acceptedSampleIDs().count
            let daemon = try fixture.startDaemon()
            try await waitUntil(timeout: .seconds(60), polling: .milliseconds(50)) { try fixture.acceptedSampleIDs().count > before }
            try await Task.sleep(for: .milliseconds(Int(random.next() % 1_500)))
            daemon.signal(SIGKILL)
            _ = try await DaemonFixture.waitForExit(daemon)
        }
        let accepted = try fixture.acceptedSampleIDs()
        let last = try fixture.startDaemon()
        try await waitUntil(timeout: .seconds(180), polling: .milliseconds(500)) {
            Set(try await fixture.serverSamples().map(\.id)).isSuperset(of: accepted)
        }
        last.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(last) == 0)
        let stored = try await fixture.serverSamples().map(\.id)
        #expect(stored.count == Set(stored).count, "a sample was stored twice")
        #expect(accepted.count > 50)
    }

    @Test("a network outage builds a backlog that drains in capture order once the network returns")
    func outageBacklogDrainsInCaptureOrder() async throws {
        let fixture = try await DaemonFixture.start(straps: 2)
        defer { Task { await fixture.stop() } }
        let daemon = try fixture.startDaemon()
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) { await fixture.jhe.storedCount() >= 5 }
        await fixture.jhe.setReachable(false)
        let storedAtCut = await fixture.jhe.storedCount()
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) {
            try fixture.acceptedSampleIDs().count >= storedAtCut + 40
        }
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) {
            try fixture.statusReport()?.uplink.currentError != nil
        }
        #expect(try fixture.statusReport()?.uplink.failingSince != nil, "status shows since when uploads fail")
        await fixture.jhe.setReachable(true)
        let accepted = try fixture.acceptedSampleIDs()
        try await waitUntil(timeout: .seconds(180), polling: .milliseconds(500)) {
            Set(try await fixture.serverSamples().map(\.id)).isSuperset(of: accepted)
        }
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(200)) {
            try fixture.statusReport()?.uplink.currentError == nil
        }
        daemon.signal(SIGTERM)
        _ = try await DaemonFixture.waitForExit(daemon)
        let journal = try fixture.daemonLog()
        #expect(journal.count { $0.hasPrefix("<4>edge-gateway: uploads are failing") } == 1, "the outage is logged once, when it starts")
        #expect(journal.count { $0.hasPrefix("<5>edge-gateway: uploads recovered") } == 1, "its end is logged once")
        #expect(!journal.contains { $0.contains("strap cycle failed") }, "a graceful stop is not a failure")
        let times = try await fixture.serverSamples().map(\.time)
        #expect(times == times.sorted(), "the backlog was not delivered in capture order")
    }

    @Test("a revoked refresh token stops uploads with re-enrolment required; nothing is lost and enroll resumes them")
    func revokedGrantWaitsForReenrolment() async throws {
        let fixture = try await DaemonFixture.start(straps: 1, tokenLifetime: 5)
        defer { Task { await fixture.stop() } }
        let daemon = try fixture.startDaemon()
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) { await fixture.jhe.storedCount() >= 5 }
        await fixture.jhe.revokeRefreshTokens()
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) {
            try fixture.statusReport()?.uplink.reenrolmentRequired != nil
        }
        let storedWhileLost = await fixture.jhe.storedCount()
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(200)) {
            try fixture.acceptedSampleIDs().count >= storedWhileLost + 20
        }
        #expect(await fixture.jhe.storedCount() == storedWhileLost)
        try await fixture.enroll()
        let accepted = try fixture.acceptedSampleIDs()
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(500)) {
            Set(try await fixture.serverSamples().map(\.id)).isSuperset(of: accepted)
        }
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(200)) {
            try fixture.statusReport()?.uplink.reenrolmentRequired == nil
        }
        daemon.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(daemon) == 0)
    }

    @Test("withdrawn consent turns samples into dead letters with the reason; retry-dead delivers them once it returns")
    func withdrawnConsentHoldsDeadLettersUntilRetried() async throws {
        let fixture = try await DaemonFixture.start(straps: 1)
        defer { Task { await fixture.stop() } }
        let daemon = try fixture.startDaemon()
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) { await fixture.jhe.storedCount() >= 3 }
        await fixture.jhe.setConsent(false)
        var dead = ""
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(500)) {
            dead = try await fixture.command(["queue", "dead", "--json"]).standardOutput
            return dead.split(separator: "\n").count >= 10
        }
        #expect(dead.contains("consent"))
        await fixture.jhe.setConsent(true)
        let retried = try await fixture.command(["queue", "retry-dead"])
        #expect(retried.status == 0)
        let accepted = try fixture.acceptedSampleIDs()
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(500)) {
            Set(try await fixture.serverSamples().map(\.id)).isSuperset(of: accepted)
        }
        daemon.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(daemon) == 0)
    }
}
