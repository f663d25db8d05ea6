import Foundation
import GATTHeartRate
@testable import GatewayPipeline
import GatewayTestSupport
import Logging
import OfflineQueue
import Synchronization
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

    /// A source as `NotificationSockets` is to the intake: values that wait outside the buffer
    /// until gathered.
    final class HeldValues: Sendable {
        let buffer: SampleBuffer
        let waiting = Mutex<[HeartRateSample]>([])
        let gathers = Mutex(0)

        init(buffer: SampleBuffer) {
            self.buffer = buffer
        }

        /// Hands what waits to the buffer; asks for the next gather only after the interval.
        func gather() -> Duration {
            gathers.withLock { $0 += 1 }
            let taken = waiting.withLock { state in
                defer { state = [] }
                return state
            }
            for sample in taken { buffer.add(sample) }
            return .seconds(3600)
        }
    }

    /// An intake running over queues in a directory of its own, with its buffer and commit
    /// signal, until `finish()`.
    struct Running {
        let directory: TemporaryDirectory
        let queue: OfflineQueue
        let held: OfflineQueue
        let buffer = SampleBuffer()
        let committed = ChangeSignal()
        let storing: Task<Void, Error>

        init(commitInterval: Duration, commitMax: Int = 256) throws {
            directory = try TemporaryDirectory("intake")
            queue = try OfflineQueue(path: directory.file("queue.sqlite"))
            held = try OfflineQueue(path: directory.file(HeldSamples.fileName))
            let intake = SampleIntake(
                buffer: buffer, queue: queue, held: held, counters: DaemonCounters(), logger: Logger(label: "test"),
                committed: committed, commitInterval: commitInterval, commitMax: commitMax)
            storing = Task { try await intake.run() }
        }

        /// The ids the queue holds, leased.
        func storedIDs() async throws -> [UUID] {
            try await queue.lease(max: 100).records.map { try SampleRecordCodec.sample(from: $0).id }
        }

        /// Closes the buffer, waits for the intake to commit what is left and stop, then closes
        /// the queues and removes the directory.
        func finish() async throws {
            buffer.close()
            try await storing.value
            await held.close()
            await queue.close()
            directory.remove()
        }
    }

    @Test("a source is gathered right before the commit, so what it holds joins the buffer's samples in that commit")
    func sourceGatheredBeforeTheCommit() async throws {
        // The interval is ended by `commit_max`, not by a timer, so no step of the test races it.
        let intake = try Running(commitInterval: .seconds(3600), commitMax: 3)
        let source = HeldValues(buffer: intake.buffer)
        let key = intake.buffer.addSource { source.gather() }
        let samples = (1 ... 4).map { Self.sample("F0:1D:2E:3C:00:0\($0)") }
        intake.buffer.source(key, active: true)
        // An active source starts an interval, which gathers it at once; it asks for no
        // other gather before the interval ends.
        try await waitUntil { source.gathers.withLock { $0 } == 1 }
        intake.buffer.add(samples[0])
        source.waiting.withLock { $0 = [samples[3]] }
        intake.buffer.add(samples[1])
        intake.buffer.add(samples[2])
        #expect(await intake.committed.wait(upTo: .seconds(60)), "three samples end the interval")
        // The source's sample joins only at the end gather: the next interval would end in an hour.
        #expect(Set(try await intake.storedIDs()) == Set(samples.map(\.id)), "the first commit holds the four")
        intake.buffer.removeSource(key)
        try await intake.finish()
    }

    @Test("an interval ends on its timer: a lone sample is committed within it")
    func intervalEndsOnItsTimer() async throws {
        let intake = try Running(commitInterval: .milliseconds(200))
        let sample = Self.sample("F0:1D:2E:3C:00:01")
        intake.buffer.add(sample)
        #expect(await intake.committed.wait(upTo: .seconds(60)), "committed once its interval ended")
        #expect(try await intake.storedIDs() == [sample.id])
        try await intake.finish()
    }

    @Test("an interval ends early once commit_max samples wait, and closing the buffer ends a pause at once and commits what waits")
    func commitMaxAndCloseEndTheInterval() async throws {
        let intake = try Running(commitInterval: .seconds(3600), commitMax: 3)
        let samples = (1 ... 4).map { Self.sample("F0:1D:2E:3C:00:0\($0)") }
        for sample in samples.prefix(3) { intake.buffer.add(sample) }
        #expect(await intake.committed.wait(upTo: .seconds(60)), "three samples end an hour's interval")
        #expect(try await intake.storedIDs().count == 3)
        intake.buffer.add(samples[3])
        intake.buffer.close()
        try await intake.storing.value
        #expect(try await intake.storedIDs() == [samples[3].id])
        try await intake.finish()
    }
}
