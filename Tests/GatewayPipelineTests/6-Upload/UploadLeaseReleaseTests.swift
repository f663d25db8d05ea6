import Foundation
@testable import GatewayPipeline
import GatewayTestSupport
import Logging
import OfflineQueue
import PipelineTestSupport
import Testing

/// The uploader is the queue's only consumer, so samples leased by an earlier run (killed, or
/// stopped mid-retry) need not wait out their two-minute lease: they go out as soon as the next
/// run starts. The waits here are shorter than the lease, so only a release can pass them.
@Suite("Daemon: the uploader releases leases it cannot finish")
struct UploadLeaseReleaseTests {
    @Test("samples leased by a run that was killed are sent as soon as the next run starts, not after their lease expires")
    func leasesOfAKilledRunAreReleasedAtStart() async throws {
        let directory = try TemporaryDirectory("lease-release-start")
        defer { directory.remove() }
        let uplink = try await EnrolledUplink.start(in: directory.path)
        try await uplink.queue.append(contentsOf: (0 ..< 3).map { try SampleRecordCodec.record(for: SampleFixtures.sample($0, patient: nil)) })
        #expect(try await uplink.queue.lease(max: 10).records.count == 3)

        let uploading = Task { try await Self.uploader(uplink).run() }
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(50)) {
            let stats = try await uplink.queue.stats()
            return await uplink.jhe.storedCount() == 3 && stats.pending + stats.leased == 0
        }
        uploading.cancel()
        _ = try? await uploading.value
        try await uplink.stop()
    }

    @Test("a run stopped while it retries puts the samples it holds back to pending")
    func stopMidRetryReleasesTheBatch() async throws {
        let directory = try TemporaryDirectory("lease-release-stop")
        defer { directory.remove() }
        let uplink = try await EnrolledUplink.start(in: directory.path)
        await uplink.jhe.failNext(1_000, status: 503)
        try await uplink.queue.append(contentsOf: (0 ..< 3).map { try SampleRecordCodec.record(for: SampleFixtures.sample($0, patient: nil)) })

        let uploading = Task { try await Self.uploader(uplink).run() }
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(50)) { try await uplink.queue.stats().leased == 3 }
        uploading.cancel()
        _ = try? await uploading.value
        let stats = try await uplink.queue.stats()
        #expect((stats.pending, stats.leased) == (3, 0))
        try await uplink.stop()
    }

    static func uploader(_ uplink: EnrolledUplink) -> UploadService {
        var uploader = UploadService(
            queue: uplink.queue, client: uplink.client, tokens: uplink.tokens, counters: DaemonCounters(), logger: Logger(label: "test"),
            committed: ChangeSignal())
        uploader.interval = .zero
        return uploader
    }
}
