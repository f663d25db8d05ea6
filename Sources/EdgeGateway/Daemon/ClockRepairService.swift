import GATTHeartRate
import Logging
import OfflineQueue
import ServiceLifecycle

/// Moves samples from the held queue to the upload queue once the wall clock synchronises,
/// re-stamped from the monotonic clock ("Time" in docs/architecture.md).
///
/// A sample from another boot cannot be re-stamped; it becomes a dead letter, filed under the
/// time of repair so that age-based eviction does not take it for ancient.
///
/// Each step is append-then-acknowledge, so a crash in between re-sends a sample with the same
/// id, which the server drops as a duplicate (409): nothing is lost, nothing is stored twice.
struct ClockRepairService: Service {
    let held: OfflineQueue
    let queue: OfflineQueue
    let clock: CaptureClock
    let counters: DaemonCounters
    let logger: Logger
    var checkInterval: Duration = .seconds(5)
    var batchSize = 1_000

    func run() async throws {
        while !Task.isCancelledOrShuttingDown {
            do {
                try await repairWhileSynchronized()
                let waiting = try await held.stats()
                counters.update { $0.setSamplesAwaitingClock(waiting.pending + waiting.leased) }
            } catch {
                logger.error("clock repair failed; will retry", metadata: ["error": "\(error)"])
            }
            await ServicePause.sleep(for: checkInterval)
        }
    }

    /// Repairs held samples in batches while the clock is synchronised.
    func repairWhileSynchronized() async throws {
        while clock.source.isSynchronized() {
            let lease = try await held.lease(max: batchSize)
            if lease.records.isEmpty { return }
            let now = clock.now()
            var repaired: [HeartRateSample] = []
            var unrepairable: [HeartRateSample] = []
            var undecodable: [Int64] = []
            for record in lease.records {
                do throws(SampleRecord.DecodingFailure) {
                    let sample = try SampleRecord.sample(from: record)
                    if let fixed = ClockRepair.restamp(sample, now: now) { repaired.append(fixed) } else { unrepairable.append(sample) }
                } catch {
                    undecodable.append(record.id)
                    logger.error("held record is not a sample", metadata: ["error": "\(error.message)"])
                }
            }
            try await queue.append(contentsOf: repaired.map(SampleRecord.record(for:)))
            for sample in unrepairable {
                var record = try SampleRecord.record(for: sample)
                record.captureTime = now.wallClockNanoseconds
                let ids = try await queue.append(contentsOf: [record])
                try await queue.reject(ids, reason: ClockRepair.unrepairableReason(sample))
            }
            try await held.reject(undecodable, reason: "undecodable-record")
            try await held.ack(lease.ids.filter { !undecodable.contains($0) })
            logger.notice("clock synchronised: re-stamped held samples", metadata: [
                "repaired": "\(repaired.count)", "unrepairable": "\(unrepairable.count)",
            ])
        }
    }
}
