#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayPipeline
import GatewayStatus
import Logging
import ServiceLifecycle

/// Publishes the daemon's view when it changes: `status.json` for `edge-gateway status`, and
/// whatever `onReport` does with it (the systemd status line). A changed figure is published
/// at most every `interval`; an unchanged report is rewritten every `heartbeat`, so `status`
/// can tell a live daemon from a hung one; systemd's watchdog, when set, is pinged at half its
/// period (`onAlive`). Between these the reporter sleeps: an idle daemon does not wake for it,
/// and a burst of changes (a strap's connect attempt failing) makes one report, `settle` after
/// its first change. While figures keep changing (straps streaming: every commit moves them), it
/// wakes once per report, at the end of each interval.
///
/// The file changes every few seconds while straps stream, so it is kept off the SD card when
/// systemd gives the service a runtime directory (tmpfs): it is written there, and
/// `<state>/status.json` is a symbolic link to it. It is written atomically (rename) but not
/// synced: it is a snapshot, not data, and the next one follows.
struct StatusReporter: Service {
    let stateDirectory: String
    let runtimeDirectory: String?
    let counters: DaemonCounters
    let gatewayName: String
    let clock: CaptureClock
    let logger: Logger
    /// The shortest gap between two reports while figures keep changing.
    var interval: Duration = .seconds(5)
    /// How long a change is left to settle before it is published, so the steps of one event
    /// (a connect attempt starting and failing, a strap connecting and subscribing) make one
    /// report rather than one each.
    var settle: Duration = .seconds(1)
    /// The longest gap: the report's `refresh_s`, which readers judge staleness by.
    var heartbeat: Duration = .seconds(60)
    /// systemd's watchdog period, if the service has one.
    var watchdog: Duration?
    var onReport: @Sendable (GatewayStatusReport) -> Void = { _ in }
    var onAlive: @Sendable () -> Void = {}

    /// Where the report is written.
    var reportPath: String { (runtimeDirectory ?? stateDirectory) + "/" + GatewayStatusReport.fileName }

    func run() async throws {
        linkFromStateDirectory()
        let startedAt = Date()
        var failing = false
        // When systemd last heard the daemon is alive: each report tells it (its status line
        // carries WATCHDOG=1), and `onAlive` between reports.
        var alive = ContinuousClock.now
        // Whether figures were changing when this report was made: while straps stream they
        // change every commit, so the next report is simply due `interval` later.
        var changing = false
        while true {
            counters.changes.acknowledge()
            let report = counters.read {
                $0.report(
                    name: gatewayName, startedAt: startedAt, refreshSeconds: heartbeat.seconds,
                    clockSynchronized: clock.source.isSynchronized())
            }
            do {
                try StatusReportFile.write(report, directory: runtimeDirectory ?? stateDirectory)
                failing = false
            } catch {
                if !failing { logger.warning("cannot write the status report", metadata: ["path": "\(reportPath)", "error": "\(error)"]) }
                failing = true
            }
            onReport(report)
            alive = .now
            if Task.isCancelledOrShuttingDown { return }
            let written = ContinuousClock.now
            // Streaming: sleep out the interval and look, one wake per report, rather than wake
            // for the first change (a commit, a second later) and again when the interval ends.
            if changing {
                _ = await pause(until: written + interval, orChange: false, alive: &alive)
                if counters.changes.acknowledge() { continue }
            }
            changing = await pause(until: written + heartbeat, orChange: true, alive: &alive)
            if changing {
                _ = await pause(until: max(ContinuousClock.now + settle, written + interval), orChange: false, alive: &alive)
            }
        }
    }

    /// Waits until `due`, or until a figure changes (true) when `orChange`, or the daemon shuts
    /// down; pings the watchdog each time half its period has passed since `alive`, however
    /// rarely figures change (a stalled card commits, and so changes the counts, only every few
    /// seconds).
    private func pause(until due: ContinuousClock.Instant, orChange: Bool, alive: inout ContinuousClock.Instant) async -> Bool {
        while !Task.isCancelledOrShuttingDown {
            let now = ContinuousClock.now
            guard now < due else { return false }
            let ping = watchdog.map { alive + $0 / 2 }
            let wake = min(due, ping ?? due)
            if wake > now {
                if orChange {
                    if await counters.changes.wait(upTo: now.duration(to: wake)) { return true }
                } else {
                    await ServicePause.sleep(for: now.duration(to: wake))
                }
            }
            if let ping, ContinuousClock.now >= ping {
                onAlive()
                alive = .now
            }
        }
        return false
    }

    private func linkFromStateDirectory() {
        guard runtimeDirectory != nil else { return }
        let link = stateDirectory + "/" + GatewayStatusReport.fileName
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == reportPath { return }
        try? FileManager.default.removeItem(atPath: link)
        do {
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: reportPath)
        } catch {
            logger.warning("cannot link the status report into the state directory", metadata: ["error": "\(error)"])
        }
    }
}
