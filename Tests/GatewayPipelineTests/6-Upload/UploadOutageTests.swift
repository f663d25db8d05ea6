import Foundation
import GATTHeartRate
@testable import GatewayDaemon
@testable import GatewayPipeline
@testable import GatewayStatus
import GatewayTestSupport
import JHESimulator
import Logging
import OfflineQueue
import Synchronization
import Testing
import Uplink

/// The uploader through a server outage, in-process with its pauses set far apart: a first
/// retry pause of ten minutes, probes every 200 ms. Only the probe can make uploads resume
/// within the two minutes the test waits after the server's return.
@Suite("Daemon: uploads through an outage")
struct UploadOutageTests {
    /// Journal lines, as the daemon writes them.
    final class JournalLines: Sendable {
        let lines = Mutex<[String]>([])

        var logger: Logger {
            Logger(label: "edge-gateway") { [self] label in
                SystemdLogHandler(label: label, level: .debug) { line in self.lines.withLock { $0.append(line) } }
            }
        }

        func count(_ prefix: String) -> Int {
            lines.withLock { $0.count { $0.hasPrefix(prefix) } }
        }
    }

    static func report(_ counters: DaemonCounters) -> GatewayStatusReport.UplinkStatus {
        counters.read { $0.report(name: "test", startedAt: Date(), refreshSeconds: 5, clockSynchronized: true).uplink }
    }

    @Test(
        "an outage is logged once when it starts (warning) and once when it ends (notice), status shows it while it lasts, and uploads resume within seconds of the server's return"
    )
    func outageIsReportedAndEndsPromptly() async throws {
        let directory = try TemporaryDirectory("upload-outage")
        defer { directory.remove() }
        let uplink = try await EnrolledUplink.start(in: directory.path)
        let (jhe, queue) = (uplink.jhe, uplink.queue)
        let journal = JournalLines()
        let counters = DaemonCounters()
        var service = UploadService(queue: queue, client: uplink.client, tokens: uplink.tokens, counters: counters, logger: journal.logger)
        service.interval = .milliseconds(200)
        service.backoff = Backoff(initial: .seconds(600), maximum: .seconds(600))
        service.probeInterval = .milliseconds(200)

        await jhe.setReachable(false)
        let samples = (0 ..< 10).map { index in
            HeartRateSample(
                id: UUID(), sensor: BluetoothAddress("F0:1D:2E:3C:00:01")!, patientID: nil,
                measurement: HeartRateMeasurement(bpm: 60 + UInt16(index), contact: .detected),
                captured: CaptureTime(
                    wallClockNanoseconds: 1_795_000_000_000_000_000 + Int64(index) * 1_000_000_000,
                    wallClockSynchronized: true, monotonicNanoseconds: UInt64(index + 1) * 1_000_000_000, bootID: UUID()))
        }
        try await queue.append(contentsOf: samples.map(SampleRecordCodec.record(for:)))
        let uploader = Task { try await service.run() }

        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(50)) { Self.report(counters).currentError != nil }
        let failing = Self.report(counters)
        #expect(failing.failingSince != nil)
        #expect(journal.count("<4>edge-gateway: uploads are failing") == 1)

        let requestsAtFailure = await jhe.counters.requests
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(50)) { await jhe.counters.requests >= requestsAtFailure + 3 }
        #expect(await jhe.counters.batchRequests == 0, "probes, not batches, while the server is down")
        await jhe.setReachable(true)
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(100)) { await jhe.storedCount() == 10 }
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(50)) { Self.report(counters).currentError == nil }
        #expect(Self.report(counters).failingSince == nil)
        #expect(journal.count("<4>edge-gateway: uploads are failing") == 1, "a warning per failed round instead of per outage")
        #expect(journal.count("<5>edge-gateway: uploads recovered") == 1)

        uploader.cancel()
        _ = try? await uploader.value
        try await uplink.stop()
    }
}
