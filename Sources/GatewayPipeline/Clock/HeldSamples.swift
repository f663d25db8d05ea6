import GATTHeartRate
import OfflineQueue

/// The held queue (`held.sqlite`): samples stamped while the wall clock was not synchronised
/// wait here, not uploaded, until their times can be trusted. Releasing them moves them to the
/// upload queue re-stamped from the monotonic clock ("Time" in docs/architecture.md); a sample
/// from another boot cannot be re-stamped and becomes a dead letter with the reason, filed
/// under the time of release so that age-based eviction does not take it for ancient.
///
/// Each step is append-then-acknowledge, so a crash in between re-sends a sample with the same
/// id, which the server drops as a duplicate (409): nothing is lost, nothing is stored twice.
/// The daemon releases them when the clock synchronises or the hold is switched off;
/// `edge-gateway queue release-held` does it on command.
package struct HeldSamples {
    /// The held queue's file in the state directory.
    package static let fileName = "held.sqlite"

    let held: OfflineQueue
    let queue: OfflineQueue
    var batchSize = 1_000

    /// Releases from `held` into `queue`.
    package init(held: OfflineQueue, queue: OfflineQueue) {
        self.held = held
        self.queue = queue
    }

    /// What one release moved.
    package struct Release: Equatable, Sendable {

        /// Re-stamped and queued for upload.
        package var repaired = 0
        /// From another boot: dead letters (`clock-unrepairable`).
        package var unrepairable = 0
        /// Not samples at all: dead letters in the held queue (`queue.undecodable-record`).
        package var undecodable = 0

        /// Every record this release took out of the held queue, whatever became of it.
        package var total: Int { repaired + unrepairable + undecodable }
    }

    /// Releases held samples in batches, re-stamped against `now()`, for as long as
    /// `allowed()` holds (the clock stays synchronised, or the hold stays off).
    package func release(now: () -> CaptureTime, while allowed: () -> Bool = { true }) async throws -> Release {
        var release = Release()
        while allowed() {
            let lease = try await held.lease(max: batchSize)
            if lease.records.isEmpty { break }
            let stamp = now()
            var repaired: [HeartRateSample] = []
            var unrepairable: [HeartRateSample] = []
            var undecodable: [Int64] = []
            for record in lease.records {
                do throws(SampleRecordError) {
                    let sample = try SampleRecordCodec.sample(from: record)
                    if let fixed = ClockRepair.restamp(sample, now: stamp) { repaired.append(fixed) } else { unrepairable.append(sample) }
                } catch {
                    undecodable.append(record.id)
                }
            }
            try await queue.append(contentsOf: repaired.map(SampleRecordCodec.record(for:)))
            let unrepairableIDs = try await queue.append(
                contentsOf: unrepairable.map { sample in
                    var record = try SampleRecordCodec.record(for: sample)
                    record.captureTime = stamp.wallClockNanoseconds
                    return record
                })
            let byReason = Dictionary(grouping: zip(unrepairable, unrepairableIDs)) { ClockRepair.unrepairableReason($0.0) }
            for (reason, entries) in byReason { try await queue.reject(entries.map(\.1), reason: reason) }
            try await held.reject(undecodable, reason: "queue.undecodable-record: a held record is not a heart-rate sample")
            try await held.ack(lease.ids.filter { !undecodable.contains($0) })
            release.repaired += repaired.count
            release.unrepairable += unrepairable.count
            release.undecodable += undecodable.count
        }
        return release
    }
}
