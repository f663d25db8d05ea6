import GATTHeartRate
import Logging
import OfflineQueue
import ProcessThreads
import ServiceLifecycle

/// Makes samples durable: once per commit interval takes what the buffer holds and commits it
/// to the queue, or, when the wall clock was not synchronised at capture, to the held queue
/// until clock repair re-stamps them. A sample is *accepted* when its commit returns.
///
/// The interval starts with the first sample (or when a source's values start coming), and
/// again at each commit while samples keep coming; the batch is taken at its end, or once
/// `commitMax` samples wait, so a sample waits at most one interval for its commit. The
/// buffer's sources (`AcquireNotify` sockets) are gathered right before the commit, and as
/// often as they ask meanwhile (`NotificationSockets`): their notifications wait in the kernel,
/// dated by their arrival, and cost no wake of their own.
///
/// It runs on the storage thread, as the queues do, so a commit wakes that one thread: the
/// interval's timer falls due there, and the gather, the batch and its commit run there.
///
/// On graceful shutdown the buffer is closed and drained, so the last group commit reaches the
/// disk before the process exits (the sensors stop first: they come later in the service group).
package struct SampleIntake: Service {
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
    /// How long a sample may wait for its commit (`[queue] commit_interval_ms`).
    var commitInterval: Duration
    /// How many samples end an interval early (`[queue] commit_max`).
    var commitMax: Int

    /// Every field given: the memberwise initializer, which Swift would make only `internal`.
    package init(
        buffer: SampleBuffer,
        queue: OfflineQueue,
        held: OfflineQueue,
        counters: DaemonCounters,
        logger: Logger,
        committed: ChangeSignal = ChangeSignal(),
        heldCommitted: ChangeSignal = ChangeSignal(),
        holdUnsynchronized: Bool = true,
        commitInterval: Duration = QueueConfiguration().commitInterval,
        commitMax: Int = QueueConfiguration().commitMax
    ) {
        self.buffer = buffer
        self.queue = queue
        self.held = held
        self.counters = counters
        self.logger = logger
        self.committed = committed
        self.heldCommitted = heldCommitted
        self.holdUnsynchronized = holdUnsynchronized
        self.commitInterval = commitInterval
        self.commitMax = commitMax
    }

    /// Commits what the buffer holds, once per commit interval, until shutdown; then the rest.
    package func run() async throws {
        try await withGracefulShutdownHandler {
            let storageFailure = try await withThrowingTaskGroup { group in
                group.addTask { await watchStorage() }
                await withTaskExecutorPreference(BlockingWorkExecutor.storage) {
                    // While samples keep coming, the next interval starts at the commit: the
                    // storage thread then wakes once per interval, not for its first sample too.
                    var streaming = false
                    while streaming ? true : await buffer.waitForWork() {
                        await waitOutInterval()
                        let batch = buffer.takeAll()
                        streaming = !batch.isEmpty
                        await store(batch)
                    }
                }
                group.cancelAll()
                return try await group.next() ?? nil
            }
            if let storageFailure {
                throw GatewayError(
                    .storageFailed,
                    "\(storageFailure), and \(samplesNotKept) samples received since could not be kept; every sample accepted before is on disk. Check the disk (dmesg), then start the daemon again"
                )
            }
            try await queue.flush()
            try await held.flush()
        } onGracefulShutdown: {
            buffer.close()
        }
    }

    /// Waits one commit interval, or until the buffer closes or holds `commitMax` samples,
    /// gathering its sources as often as they ask meanwhile, and last at the interval's end.
    private func waitOutInterval() async {
        let clock = ContinuousClock()
        let due = clock.now.advanced(by: commitInterval)
        var next = buffer.gather()
        repeat {
            let remaining = clock.now.duration(to: due)
            await buffer.pause(for: min(remaining, next ?? remaining), on: .storage, endsAt: commitMax)
            next = buffer.gather()
        } while clock.now < due && !buffer.isClosed && buffer.count < commitMax
    }

    /// Samples received but never accepted: refused by the full (or closed) buffer, or whose
    /// commit failed.
    package var samplesNotKept: Int { counters.read(\.samplesRefused) + buffer.refused }

    /// Each time the buffer is full, asks whether the queue's file system has failed (read-only,
    /// I/O errors: `queue.storage-failed`). If so, the daemon must stop rather than refuse
    /// samples for as long as nobody looks: logs it at critical, closes the buffer and the
    /// queues (their waiting appends fail) and says why. A full disk is left to the queue,
    /// which commits once space returns: it is looked at again 5 s later.
    ///
    /// Once the buffer closes (the daemon stops), an append waiting out a storage fault, full
    /// disk included, would wait for ever (its commit is retried every few seconds) and
    /// SIGTERM would go unheeded until systemd's SIGKILL: the queues are closed then too, and
    /// the samples waiting are counted as not kept. Nil when the task is cancelled (the drain
    /// finished).
    private func watchStorage() async -> String? {
        while await buffer.waitUntilFull() {
            if let fault = await storageFaults().first(where: { $0.code == .storageFailed }) {
                logger.critical(
                    "the queue's file system refuses writes and max_in_memory samples wait: stopping (exit status 73)",
                    metadata: ["waiting": "\(buffer.capacity)", "error": "\(fault)"])
                buffer.close()
                await queue.close()
                await held.close()
                return "the file system holding the queue refuses writes (max_in_memory = \(buffer.capacity) reached)"
            }
            try? await ProcessExecutor.sleep(for: .seconds(5))
        }
        while !Task.isCancelled {
            if let fault = await storageFaults().first {
                logger.critical(
                    "stopping while the queue cannot commit: the samples waiting in memory are not kept (exit status 73)",
                    metadata: ["error": "\(fault)"])
                await queue.close()
                await held.close()
                return fault.code == .storageFull
                    ? "the daemon stopped while the disk holding the queue was full"
                    : "the daemon stopped while the file system holding the queue refused writes"
            }
            try? await ProcessExecutor.sleep(for: .seconds(1))
        }
        return nil
    }

    /// The storage faults under way: the upload queue's, then the held queue's.
    private func storageFaults() async -> [QueueError] {
        [await queue.storageFault(), await held.storageFault()].compactMap { $0 }
    }

    private func store(_ batch: [HeartRateSample]) async {
        let ready = holdUnsynchronized ? batch.filter(\.captured.wallClockSynchronized) : batch
        let waiting = holdUnsynchronized ? batch.filter { !$0.captured.wallClockSynchronized } : []
        for (candidates, target) in [(ready, queue), (waiting, held)] where !candidates.isEmpty {
            let (samples, records) = encodable(candidates)
            guard !records.isEmpty else { continue }
            do {
                try await target.commit(records)
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
