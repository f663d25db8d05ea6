import Foundation
@testable import GatewayDaemon
@testable import GatewayPipeline
@testable import GatewayStatus
import GatewayTestSupport
import Logging
import Synchronization
import Testing

/// The status report is rewritten when a figure changes, not on a timer; the watchdog is
/// pinged at half its period in between, without rewriting an unchanged report.
@Suite("Daemon: status reports on change")
struct StatusReporterTests {
    /// A reporter that records its reports and watchdog pings, pinged every 20 ms and with
    /// no heartbeat within a test's time.
    final class Recorded: Sendable {
        let reporter: StatusReporter
        let reports = Mutex<[GatewayStatusReport]>([])
        let pings = Mutex(0)

        init(directory: TemporaryDirectory, counters: DaemonCounters, interval: Duration) {
            var reporter = StatusReporter(
                stateDirectory: directory.path, runtimeDirectory: nil, counters: counters, gatewayName: "ward-3", clock: CaptureClock(),
                logger: Logger(label: "test"))
            reporter.interval = interval
            reporter.heartbeat = .seconds(3600)
            reporter.watchdog = .milliseconds(40)
            self.reporter = reporter
        }

        var reportCount: Int { reports.withLock { $0.count } }
        var pingCount: Int { pings.withLock { $0 } }

        /// Runs the reporter, recording into this, until the task is cancelled.
        func run() -> Task<Void, Error> {
            var reporter = reporter
            reporter.onReport = { report in self.reports.withLock { $0.append(report) } }
            reporter.onAlive = { self.pings.withLock { $0 += 1 } }
            return Task { [reporter] in try await reporter.run() }
        }
    }

    @Test("an unchanged report is not rewritten while the watchdog is pinged; a counter change brings a new report")
    func reportsOnChangePingsBetween() async throws {
        let directory = try TemporaryDirectory("status-reporter")
        defer { directory.remove() }
        let counters = DaemonCounters()
        let recorded = Recorded(directory: directory, counters: counters, interval: .milliseconds(10))
        let running = recorded.run()

        try await waitUntil { recorded.pingCount >= 3 }
        #expect(recorded.reportCount == 1, "three watchdog periods passed with nothing changed")
        #expect(try StatusReportFile.read(directory: directory.path)?.refreshSeconds == 3600)

        counters.update { $0.refused(1) }
        try await waitUntil { recorded.reportCount == 2 }
        running.cancel()
        _ = try? await running.value
    }

    @Test("changes raised while the reporter waits out its interval go into one report, and no second report follows for them")
    func burstOfChangesMakesOneReport() async throws {
        let directory = try TemporaryDirectory("status-reporter-burst")
        defer { directory.remove() }
        let counters = DaemonCounters()
        let recorded = Recorded(directory: directory, counters: counters, interval: .seconds(1))
        let running = recorded.run()
        try await waitUntil { recorded.reportCount == 1 }

        counters.refresh { $0.setSamplesAwaitingClock(1) }
        counters.refresh { $0.setSamplesAwaitingClock(2) }
        try await waitUntil { recorded.reportCount == 2 }
        #expect(recorded.reports.withLock { $0[1].samplesAwaitingClock } == 2)
        let pinged = recorded.pingCount
        try await waitUntil { recorded.pingCount >= pinged + 60 }
        #expect(recorded.reportCount == 2, "more than an interval passed after the report that held both changes")
        running.cancel()
        _ = try? await running.value
    }

    @Test("while figures keep changing, a report follows each interval without waiting for a change in between")
    func streamingFiguresWakeOncePerReport() async throws {
        let directory = try TemporaryDirectory("status-reporter-streaming")
        defer { directory.remove() }
        let counters = DaemonCounters()
        let recorded = Recorded(directory: directory, counters: counters, interval: .milliseconds(600))
        let running = recorded.run()
        let streaming = Task {
            var awaiting = 0
            while !Task.isCancelled {
                awaiting += 1
                counters.refresh { $0.setSamplesAwaitingClock(awaiting) }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        // The first change after the start is waited for; from the second report on, figures
        // changed during each interval.
        try await waitUntil { recorded.reportCount >= 3 }
        let waits = counters.changes.waitsBegun
        try await waitUntil { recorded.reportCount >= 6 }
        #expect(counters.changes.waitsBegun == waits, "the reporter waited for a change although figures changed in every interval")
        streaming.cancel()

        // Once they stop, it waits for the next change again, and publishes it.
        try await waitUntil { counters.changes.hasWaiter }
        let reported = recorded.reportCount
        counters.update { $0.refused(1) }
        try await waitUntil { recorded.reportCount > reported }
        running.cancel()
        _ = try? await running.value
    }
}
