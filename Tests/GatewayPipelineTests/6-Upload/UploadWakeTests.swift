import Foundation
import GATTHeartRate
@testable import GatewayPipeline
import GatewayTestSupport
import JHESimulator
import Logging
import OfflineQueue
import PipelineTestSupport
import Synchronization
import Testing
import Uplink

/// The uploader sleeps while the queue is empty, with no timer that could find new samples
/// in time (its re-check is an hour away here): only the intake's commit signal can make it
/// upload within the two minutes the test waits.
@Suite("Daemon: the uploader wakes on commits")
struct UploadWakeTests {
    /// The intake and the uploader over an enrolled uplink, sharing one commit signal, running
    /// until `stop()`.
    struct Pipeline {
        let uplink: EnrolledUplink
        let held: OfflineQueue
        let counters: DaemonCounters
        let buffer: SampleBuffer
        let uploading: Task<Void, Error>
        let storing: Task<Void, Error>

        static func start(
            in directory: TemporaryDirectory, interval: Duration, batchSize: Int = 100, beforePause: @escaping @Sendable () -> Void = {}
        ) async throws -> Pipeline {
            let uplink = try await EnrolledUplink.start(in: directory.path)
            let held = try OfflineQueue(path: directory.file("held.sqlite"))
            let counters = DaemonCounters()
            let committed = ChangeSignal()
            var uploader = UploadService(
                queue: uplink.queue, client: uplink.client, tokens: uplink.tokens, counters: counters, logger: Logger(label: "test"),
                committed: committed, batchSize: batchSize, beforePause: beforePause)
            uploader.interval = interval
            uploader.recheckInterval = .seconds(3600)
            let buffer = SampleBuffer()
            let intake = SampleIntake(
                buffer: buffer, queue: uplink.queue, held: held, counters: counters, logger: Logger(label: "test"), committed: committed)
            return Pipeline(
                uplink: uplink, held: held, counters: counters, buffer: buffer,
                uploading: Task { [uploader] in try await uploader.run() }, storing: Task { try await intake.run() })
        }

        func stop() async throws {
            buffer.close()
            uploading.cancel()
            _ = try? await uploading.value
            _ = try? await storing.value
            await held.close()
            try await uplink.stop()
        }
    }

    @Test("with an empty queue the uploader sends nothing; a commit by the intake wakes it and the samples reach JHE")
    func commitWakesTheUploader() async throws {
        let directory = try TemporaryDirectory("upload-wake")
        defer { directory.remove() }
        let pipeline = try await Pipeline.start(in: directory, interval: .zero)
        let jhe = pipeline.uplink.jhe

        // The first (empty) round has run once the token state is published.
        try await waitUntil {
            pipeline.counters.read { $0.report(name: "t", startedAt: Date(), refreshSeconds: 5, clockSynchronized: true).uplink.tokenExpiresAt }
                != nil
        }
        #expect(await jhe.counters.batchRequests == 0)
        for index in 0 ..< 3 { pipeline.buffer.add(SampleFixtures.sample(index, patient: nil)) }
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(50)) { await jhe.storedCount() == 3 }
        try await pipeline.stop()
    }

    @Test("a commit wakes the uploader, but samples committed one by one within interval_s of the last round still go up together in the next one")
    func commitsWithinTheIntervalShareARound() async throws {
        let directory = try TemporaryDirectory("upload-interval")
        defer { directory.remove() }
        let pipeline = try await Pipeline.start(in: directory, interval: .seconds(6))
        let (jhe, queue) = (pipeline.uplink.jhe, pipeline.uplink.queue)

        pipeline.buffer.add(SampleFixtures.sample(0, patient: nil))
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(50)) { await jhe.storedCount() == 1 }
        for index in 1 ..< 4 {
            pipeline.buffer.add(SampleFixtures.sample(index, patient: nil))
            try await waitUntil { (try? await queue.stats().pending) == index }
        }
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(50)) { await jhe.storedCount() == 4 }
        #expect(await jhe.counters.batchRequests == 2, "the first sample alone, then the three committed one by one together")
        try await pipeline.stop()
    }

    @Test("the uploader gives its rounds' memory back when it is about to wait after rounds with samples, not between full rounds nor after empty ones")
    func beforePauseFollowsTheLastRound() async throws {
        let directory = try TemporaryDirectory("upload-pause")
        defer { directory.remove() }
        let pauses = Mutex(0)
        let pipeline = try await Pipeline.start(in: directory, interval: .zero, batchSize: 2) { pauses.withLock { $0 += 1 } }
        let jhe = pipeline.uplink.jhe
        for index in 0 ..< 4 { pipeline.buffer.add(SampleFixtures.sample(index, patient: nil)) }
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(20)) {
            await jhe.storedCount() == 4 && pauses.withLock { $0 } > 0
        }
        #expect(await jhe.counters.batchRequests == 2, "two full rounds, then an empty one")
        #expect(pauses.withLock { $0 } == 1, "one call, before the wait that follows them; none at the empty start")
        try await pipeline.stop()
    }
}
