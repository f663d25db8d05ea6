import GATTHeartRate
import Logging
import OfflineQueue
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
    /// Whether samples stamped by an unsynchronised clock wait for clock repair.
    var holdUnsynchronized = true

    func run() async throws {
        try await withGracefulShutdownHandler {
            while let batch = await buffer.takeAll() {
                await store(batch)
            }
            try await queue.flush()
            try await held.flush()
        } onGracefulShutdown: {
            buffer.close()
        }
    }

    private func store(_ batch: [HeartRateSample]) async {
        let ready = holdUnsynchronized ? batch.filter(\.captured.wallClockSynchronized) : batch
        let waiting = holdUnsynchronized ? batch.filter { !$0.captured.wallClockSynchronized } : []
        for (samples, target) in [(ready, queue), (waiting, held)] where !samples.isEmpty {
            do {
                try await target.append(contentsOf: samples.map(SampleRecord.record(for:)))
                counters.update { $0.accepted(samples) }
                logger.debug("accepted samples", metadata: [
                    "queue": "\(target === held ? "held" : "upload")",
                    "ids": "\(samples.map(\.id.uuidString).joined(separator: ","))",
                ])
            } catch {
                counters.update { $0.refused(samples.count) }
                logger.error("could not store \(samples.count) samples; they are lost", metadata: ["queue": "\(target.path)", "error": "\(error)"])
            }
        }
    }
}
