import GATTHeartRate
import Logging
import OfflineQueue
import ProcessThreads
import ServiceLifecycle

/// Makes samples durable: takes them from the buffer in batches and appends them to the queue,
/// or, when the wall clock was not synchronised at capture, to the held queue until clock repair
/// re-stamps them. A sample is *accepted* when its append returns.
///
/// On graceful shutdown the buffer is closed and drained, so the last group commit reaches the
/// disk before the process exits (the sensors stop first: they come later in the service group).
struct SampleIntake: Service {
    let buffer: SampleBuffer
    let queue: OfflineQueue
    let held: OfflineQueue
    let counters: DaemonCounters
    let logger: Logger
    /// Raised after each commit to the upload queue (wakes the uploader) and to the held queue
    /// (wakes clock repair).
    var committed = ChangeSignal()
    var heldCommitted = ChangeSignal()
    /// Whether samples stamped by an unsynchronised clock wait for clock repair.
    var holdUnsynchronized = true

    func run() async throws {
        try await withGracefulShutdownHandler {
            let storageFailed = try await withThrowingTaskGroup { group in
                group.addTask { await watchStorage() }
                while let batch = await buffer.takeAll() {
                    await store(batch)
                }
                group.cancelAll()
                return try await group.next() ?? false
            }
            if storageFailed {
                throw GatewayError(
                    .storageFailed,
                    "the file system holding the queue refuses writes, and \(samplesNotKept) samples received since could not be kept (max_in_memory = \(buffer.capacity)); every sample accepted before is on disk. Check the disk (dmesg), then start the daemon again"
                )
            }
            try await queue.flush()
            try await held.flush()
        } onGracefulShutdown: {
            buffer.close()
        }
    }

    /// Samples received but never accepted: refused by the full (or closed) buffer, or whose
    /// commit failed.
    var samplesNotKept: Int { counters.read(\.samplesRefused) + buffer.refused }

    /// Each time the buffer is full, asks whether the queue's file system has failed (read-only,
    /// I/O errors: `queue.storage-failed`). If so, the daemon must stop rather than refuse
    /// samples for as long as nobody looks: logs it at critical, closes the buffer and the
    /// queues (their waiting appends fail) and returns true. A full disk is left to the queue,
    /// which commits once space returns: it is looked at again 5 s later. False once the
    /// buffer closes.
    private func watchStorage() async -> Bool {
        while await buffer.waitUntilFull() {
            let faults = [await queue.storageFault(), await held.storageFault()]
            if let fault = faults.compactMap({ $0 }).first(where: { $0.code == .storageFailed }) {
                logger.critical(
                    "the queue's file system refuses writes and max_in_memory samples wait: stopping (exit status 73)",
                    metadata: ["waiting": "\(buffer.capacity)", "error": "\(fault)"])
                buffer.close()
                await queue.close()
                await held.close()
                return true
            }
            try? await ProcessExecutor.sleep(for: .seconds(5))
        }
        return false
    }

    private func store(_ batch: [HeartRateSample]) async {
        let ready = holdUnsynchronized ? batch.filter(\.captured.wallClockSynchronized) : batch
        let waiting = holdUnsynchronized ? batch.filter { !$0.captured.wallClockSynchronized } : []
        for (candidates, target) in [(ready, queue), (waiting, held)] where !candidates.isEmpty {
            let (samples, records) = encodable(candidates)
            guard !records.isEmpty else { continue }
            do {
                try await target.append(contentsOf: records)
                (target === held ? heldCommitted : committed).raise()
                counters.update { $0.accepted(samples) }
                logger.debug(
                    "accepted samples",
                    metadata: [
                        "queue": "\(target === held ? "held" : "upload")",
                        "ids": "\(samples.map(\.id.uuidString).joined(separator: ","))",
                    ])
            } catch {
                counters.update { $0.refused(samples.count) }
                logger.error("could not store \(samples.count) samples; they are lost", metadata: ["queue": "\(target.path)", "error": "\(error)"])
            }
        }
    }

    /// The samples that have a stored form, with their records. A sample that has none is
    /// refused alone and logged with its strap, so it never costs the rest of its commit.
    private func encodable(_ samples: [HeartRateSample]) -> (samples: [HeartRateSample], records: [NewRecord]) {
        var kept: [HeartRateSample] = []
        var records: [NewRecord] = []
        kept.reserveCapacity(samples.count)
        records.reserveCapacity(samples.count)
        for sample in samples {
            do {
                records.append(try SampleRecordCodec.record(for: sample))
                kept.append(sample)
            } catch {
                counters.update { $0.refused(1) }
                logger.error(
                    "refused a sample the queue cannot hold",
                    metadata: [
                        "sensor": "\(sample.sensor)", "sample": "\(sample.id)", "error": "\(error)", "code": "\(error.code)",
                    ])
            }
        }
        return (kept, records)
    }
}
