import Foundation

/// How the demo ended, checked against the JHE simulator's own store.
struct DemoVerdict {
    /// What the daemon cost between the end of its warm-up and the end of the strap data.
    struct DaemonCost {
        let cpuSeconds: Double
        let seconds: Int
        let samples: Int
        let residentBytes: Int
        let peakResidentBytes: Int

        var description: String {
            let perSample = samples > 0 ? cpuSeconds / Double(samples) * 1e6 : 0
            return "\(String(format: "%.1f", perSample)) µs CPU per sample (\(String(format: "%.2f", cpuSeconds)) s over \(samples) samples in \(seconds) s, \(String(format: "%.2f", cpuSeconds / Double(max(1, seconds)) * 100)) % of a core); RSS \(residentBytes >> 20) MiB, peak \(peakResidentBytes >> 20) MiB"
        }
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

    /// Every accepted sample stored once, none twice, nothing left behind, a clean stop.
    var exactlyOnce: Bool {
        drained && daemonExit == 0 && dead == 0 && left == 0 && stored == accepted && uniqueStored == stored
    }

    init(stage: DemoStage, drained: Bool, daemonExit: Int32, outageSeconds: Int, cost: DaemonCost?) async {
        let sensors = stage.statusReport()?.sensors ?? []
        straps = sensors.count
        captured = sensors.reduce(0) { $0 + $1.samplesReceived }
        accepted = sensors.reduce(0) { $0 + $1.samplesAccepted }
        let payloads = await stage.jhe.storedPayloads()
        stored = payloads.count
        uniqueStored = Set(payloads.compactMap { data -> String? in
            let point = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            return (point?["header"] as? [String: Any])?["uuid"] as? String
        }).count
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
    }

    var summary: String {
        """

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
        \(exactlyOnce ? "✓ every accepted sample was delivered exactly once" : "✗ NOT every accepted sample was delivered exactly once")
        """
    }
}
