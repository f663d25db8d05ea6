import Foundation
import GatewayCommandLine

/// How the demo ended, checked against the JHE simulator's own store.
struct DemoVerdict {
    /// What the daemon cost between the end of its warm-up and the end of the strap data.
    struct DaemonCost {
        /// One reading: the daemon's usage and the accepted count of its latest status report.
        struct Mark {
            let usage: ProcessUsage
            let at: ContinuousClock.Instant
            let accepted: Int
            let reportedAt: Date

            /// Reads it now; nil when the daemon is gone or has not reported yet.
            init?(stage: DemoStage) {
                guard let usage = stage.daemonUsage(), let report = stage.statusReport() else { return nil }
                self.usage = usage
                at = .now
                accepted = report.sensors.reduce(0) { $0 + $1.samplesAccepted }
                reportedAt = report.writtenAt
            }
        }

        let cpuSeconds: Double
        let seconds: Double
        let samples: Int
        /// The span between the two status reports the sample count comes from: the count is
        /// only as fresh as the report (every 5 s), so the rate is samples over this span.
        let sampleSeconds: Double
        let residentBytes: Int
        let peakResidentBytes: Int

        init(from start: Mark, to end: Mark) {
            let elapsed = end.at - start.at
            cpuSeconds = end.usage.cpuSeconds - start.usage.cpuSeconds
            seconds = elapsed.seconds
            samples = end.accepted - start.accepted
            sampleSeconds = end.reportedAt.timeIntervalSince(start.reportedAt)
            residentBytes = end.usage.residentBytes
            peakResidentBytes = end.usage.peakResidentBytes
        }

        /// CPU seconds per second of wall time, over samples accepted per second.
        var microsecondsPerSample: Double {
            guard samples > 0, seconds > 0, sampleSeconds > 0 else { return 0 }
            return cpuSeconds / seconds / (Double(samples) / sampleSeconds) * 1e6
        }

        var description: String {
            let core = cpuSeconds / max(1, seconds) * 100
            return
                "\(String(format: "%.1f", microsecondsPerSample)) µs CPU per sample (\(String(format: "%.2f", cpuSeconds)) s CPU in \(String(format: "%.0f", seconds)) s, \(samples) samples in \(String(format: "%.0f", sampleSeconds)) s, \(String(format: "%.2f", core)) % of a core); RSS \(residentBytes >> 20) MiB, peak \(peakResidentBytes >> 20) MiB"
        }
    }

    /// What a SIGKILL in the middle of the run left: the samples that survived it, and what the
    /// killed daemon's last status report had counted.
    struct Crash {
        let accepted: Int
        let reportedAccepted: Int
        let reportedCaptured: Int

        /// Nothing the killed daemon had reported accepted was lost.
        var lostNothing: Bool { accepted >= reportedAccepted }
    }

    let straps: Int
    let captured: Int
    let accepted: Int
    let stored: Int
    let uniqueStored: Int
    let duplicatesAnswered: Int
    let refreshes: Int
    let dead: Int
    /// Records still in the queue after the daemon stopped (accepted, not delivered).
    let left: Int
    let drained: Bool
    let daemonExit: Int32
    let outageSeconds: Int
    let cost: DaemonCost?
    let drain: BacklogDrain?
    let crash: Crash?

    /// Every accepted sample stored once, none twice, nothing left behind, a clean stop; after a
    /// crash, nothing the killed daemon had accepted lost.
    var exactlyOnce: Bool {
        drained && daemonExit == 0 && dead == 0 && left == 0 && stored == accepted && uniqueStored == stored
            && crash?.lostNothing ?? true
    }

    /// Counts after a crash add what survived it to what the restarted daemon (whose counters
    /// started from zero) reports.
    init(
        stage: DemoStage, drained: Bool, daemonExit: Int32, outageSeconds: Int, cost: DaemonCost?, drain: BacklogDrain?,
        crash: Crash? = nil
    ) async {
        let sensors = stage.statusReport()?.sensors ?? []
        straps = sensors.count
        // The killed daemon's last report may be older than its last accepted sample.
        captured = sensors.reduce(0) { $0 + $1.samplesReceived } + (crash.map { max($0.reportedCaptured, $0.accepted) } ?? 0)
        accepted = sensors.reduce(0) { $0 + $1.samplesAccepted } + (crash?.accepted ?? 0)
        let points = await stage.jhe.storedDataPoints()
        stored = points.count
        uniqueStored = Set(points.compactMap(\.uuid)).count
        let counters = await stage.jhe.counters
        duplicatesAnswered = counters.duplicates
        refreshes = counters.refreshes
        let stats = await stage.queueStats()
        dead = stats?.dead ?? 0
        left = stats.map { $0.pending + $0.leased } ?? 0
        self.drained = drained
        self.daemonExit = daemonExit
        self.outageSeconds = outageSeconds
        self.cost = cost
        self.drain = drain
        self.crash = crash
    }

    var summary: String {
        let crashLine = crash.map {
            "  SIGKILL, restarted           \($0.accepted) samples survived; its last report: \($0.reportedAccepted) accepted"
                + ($0.lostNothing ? "" : " (SOME LOST)") + "\n"
        }
        return """

            Summary
              straps                        \(straps)
              samples captured              \(captured)
              samples accepted (durable)    \(accepted)
              stored by JHE                 \(stored) (\(uniqueStored) distinct)
              re-sent, answered 409         \(duplicatesAnswered)
              dead letters                  \(dead)
              left in the queue             \(left)
              network outage                \(outageSeconds) s
              token refreshes               \(refreshes)
              daemon exit status            \(daemonExit)
              daemon cost                   \(cost?.description ?? "not measured")
              backlog drain                 \(drain?.description ?? "not measured")
            \(crashLine ?? "")\(exactlyOnce ? "✓ every accepted sample was delivered exactly once" : "✗ NOT every accepted sample was delivered exactly once")
            """
    }
}
