import BlueZSimulator
@testable import EdgeGateway
import Foundation
import GATTHeartRate
import GatewayTestSupport
import JHESimulator
import Testing
#if canImport(Glibc)
import Glibc
#endif

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

    @Test("kill -9 at random moments, ten times: every accepted sample reaches JHE exactly once")
    func killNineNeverLosesOrDuplicatesAcceptedSamples() async throws {
        let fixture = try await DaemonFixture.start(straps: 2, interval: .milliseconds(100))
        defer { Task { await fixture.stop() } }
        var random = SplitMix64(seed: 0x5EED_7A11)
        for _ in 0..<10 {
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
            try fixture.statusReport()?.uplink.lastError != nil
        }
        await fixture.jhe.setReachable(true)
        let accepted = try fixture.acceptedSampleIDs()
        try await waitUntil(timeout: .seconds(180), polling: .milliseconds(500)) {
            Set(try await fixture.serverSamples().map(\.id)).isSuperset(of: accepted)
        }
        daemon.signal(SIGTERM)
        _ = try await DaemonFixture.waitForExit(daemon)
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
