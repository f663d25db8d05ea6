@testable import GatewayDaemon
import Foundation
import GatewayTestSupport
import Logging
import Synchronization
import Testing

/// The status report is rewritten when a figure changes, not on a timer; the watchdog is
/// pinged at half its period in between, without rewriting an unchanged report.
@Suite("Daemon: status reports on change")
struct StatusReporterTests {
    @Test("an unchanged report is not rewritten while the watchdog is pinged; a counter change brings a new report")
    func reportsOnChangePingsBetween() async throws {
        let directory = try TemporaryDirectory("status-reporter")
        defer { directory.remove() }
        let counters = DaemonCounters()
        let reports = Mutex(0)
        let pings = Mutex(0)
        var reporter = StatusReporter(
            stateDirectory: directory.path, runtimeDirectory: nil, counters: counters, gatewayName: "ward-3", clock: CaptureClock(),
            logger: Logger(label: "test"))
        reporter.interval = .milliseconds(10)
        reporter.heartbeat = .seconds(3600)
        reporter.watchdog = .milliseconds(40)
        reporter.onReport = { _ in reports.withLock { $0 += 1 } }
        reporter.onAlive = { pings.withLock { $0 += 1 } }
        let running = Task { try await reporter.run() }

        try await waitUntil { pings.withLock { $0 } >= 3 }
        #expect(reports.withLock { $0 } == 1, "three watchdog periods passed with nothing changed")
        #expect(try StatusReportFile.read(directory: directory.path)?.refreshSeconds == 3600)

        counters.update { $0.refused(1) }
        try await waitUntil { reports.withLock { $0 } == 2 }
        running.cancel()
        _ = try? await running.value
    }

    @Test("changes raised while the reporter waits out its interval go into one report, and no second report follows for them")
    func burstOfChangesMakesOneReport() async throws {
        let directory = try TemporaryDirectory("status-reporter-burst")
        defer { directory.remove() }
        let counters = DaemonCounters()
        let reports = Mutex<[GatewayStatusReport]>([])
        let pings = Mutex(0)
        var reporter = StatusReporter(
            stateDirectory: directory.path, runtimeDirectory: nil, counters: counters, gatewayName: "ward-3", clock: CaptureClock(),
            logger: Logger(label: "test"))
        reporter.interval = .seconds(1)
        reporter.heartbeat = .seconds(3600)
        reporter.watchdog = .milliseconds(40)
        reporter.onReport = { report in reports.withLock { $0.append(report) } }
        reporter.onAlive = { pings.withLock { $0 += 1 } }
        let running = Task { try await reporter.run() }
        try await waitUntil { reports.withLock { $0.count } == 1 }

        counters.refresh { $0.setSamplesAwaitingClock(1) }
        counters.refresh { $0.setSamplesAwaitingClock(2) }
        try await waitUntil { reports.withLock { $0.count } == 2 }
        #expect(reports.withLock { $0[1].samplesAwaitingClock } == 2)
        let pinged = pings.withLock { $0 }
        try await waitUntil { pings.withLock { $0 } >= pinged + 60 }
        #expect(reports.withLock { $0.count } == 2, "more than an interval passed after the report that held both changes")
        running.cancel()
        _ = try? await running.value
    }
}
