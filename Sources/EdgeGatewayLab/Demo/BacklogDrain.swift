import Foundation
import GatewayCommandLine

/// How fast the daemon empties a backlog once JHE is reachable again: the samples the queue held
/// when the network came back, and the time JHE took to store them, from its first stored batch
/// to the last (so the uploader's retry pause before that first batch does not count).
struct BacklogDrain: Sendable {
    /// Records waiting in the queue when the network came back.
    let backlog: Int
    /// Of those, the ones stored after the first batch: what the rate is measured over.
    let timedSamples: Int
    let seconds: Double

    /// Samples per second JHE stored while the backlog drained; nil when one batch took it all.
    var rate: Double? { timedSamples > 0 && seconds > 0 ? Double(timedSamples) / seconds : nil }

    var description: String {
        let rateText = rate.map { String(format: "%.0f samples/s", $0) } ?? "one batch, no rate"
        return "\(backlog) samples in \(String(format: "%.2f", seconds)) s after the first batch: \(rateText)"
    }

    /// What the queue and JHE held at the moment the network came back.
    struct Start: Sendable {
        let backlog: Int
        let stored: Int

        /// Reads them; call it while JHE is still unreachable, just before restoring it.
        init?(stage: DemoStage) async {
            guard let backlog = await stage.backlog() else { return nil }
            self.backlog = backlog
            stored = await stage.jhe.storedCount()
        }

        /// Watches JHE's store every 50 ms until it holds the whole backlog; nil when it does
        /// not within `timeout` or the watch is cancelled.
        func watch(_ stage: DemoStage, within timeout: Duration) async -> BacklogDrain? {
            let clock = ContinuousClock()
            let deadline = clock.now + timeout
            let target = stored + backlog
            var first: (at: ContinuousClock.Instant, stored: Int)?
            while clock.now < deadline, !Task.isCancelled {
                let now = await stage.jhe.storedCount()
                if first == nil, now > stored { first = (clock.now, now) }
                if let first, now >= target {
                    let elapsed = clock.now - first.at
                    return BacklogDrain(
                        backlog: backlog, timedSamples: target - first.stored,
                        seconds: elapsed.seconds)
                }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return nil
        }
    }
}
