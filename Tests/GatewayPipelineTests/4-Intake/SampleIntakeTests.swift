import Foundation
import GATTHeartRate
@testable import GatewayPipeline
import GatewayTestSupport
import Logging
import OfflineQueue
import Testing

@Suite("Sample intake")
struct SampleIntakeTests {
    static func sample(_ address: String, patientID: String = "40001", rrIntervals: Int = 0) -> HeartRateSample {
        HeartRateSample(
            id: UUID(), sensor: BluetoothAddress(address)!, patientID: patientID,
            measurement: HeartRateMeasurement(bpm: 70, contact: .detected, rrIntervals: Array(repeating: 800, count: rrIntervals)),
            captured: CaptureTime(wallClockNanoseconds: 1_795_000_000_000_000_000, wallClockSynchronized: true, monotonicNanoseconds: 1, bootID: UUID()))
    }

    @Test("a 512-byte frame is stored with the rest of its commit, and a sample no format can hold is refused alone")
    func oneOddSampleNeverCostsItsCommit() async throws {
        let directory = try TemporaryDirectory("intake")
        defer { directory.remove() }
        let queue = try OfflineQueue(path: directory.file("queue.sqlite"))
        let held = try OfflineQueue(path: directory.file(HeldSamples.fileName))
        let counters = DaemonCounters()
        let buffer = SampleBuffer()
        let intake = SampleIntake(buffer: buffer, queue: queue, held: held, counters: counters, logger: Logger(label: "test"))

        let longFrame = Self.sample("F0:1D:2E:3C:00:01", rrIntervals: 255)
        #expect(longFrame.measurement.encoded().count == 512)
        let unholdable = Self.sample("F0:1D:2E:3C:00:02", patientID: String(repeating: "x", count: 70_000))
        let ordinary = Self.sample("F0:1D:2E:3C:00:03")
        for sample in [longFrame, unholdable, ordinary] { #expect(buffer.add(sample)) }
        buffer.close()
        try await intake.run()

        let stored = try await queue.lease(max: 10).records.map { try SampleRecordCodec.sample(from: $0) }
        #expect(stored == [longFrame, ordinary])
        #expect(counters.read(\.samplesRefused) == 1)
        await held.close()
        await queue.close()
    }
}
