import Foundation
import GATTHeartRate
@testable import GatewayConfiguration
@testable import GatewayDaemon
@testable import GatewayPipeline
import GatewayTestSupport
import Logging
import OfflineQueue
import Synchronization
import Testing

/// A clock that starts days wrong and unsynchronised, like a Raspberry Pi after a cold boot
/// without network, and that the test can synchronise.
final class FakeClockSource: ClockSource {
    private struct Readings {
        var wall: Int64
        var monotonic: UInt64
        var synchronized: Bool
    }

    let bootID = UUID()
    private let readings: Mutex<Readings>

    init(wall: Int64, monotonic: UInt64) {
        readings = Mutex(Readings(wall: wall, monotonic: monotonic, synchronized: false))
    }

    func wallClockNanoseconds() -> Int64 { readings.withLock { $0.wall } }
    func monotonicNanoseconds() -> UInt64 { readings.withLock { $0.monotonic } }
    func isSynchronized() -> Bool { readings.withLock { $0.synchronized } }

    /// Time passes on both clocks.
    func advance(seconds: Int64) {
        readings.withLock {
            $0.wall += seconds * 1_000_000_000
            $0.monotonic += UInt64(seconds) * 1_000_000_000
        }
    }

    /// NTP steps the wall clock to `wall` and reports it synchronised.
    func synchronize(wall: Int64) {
        readings.withLock {
            $0.wall = wall
            $0.synchronized = true
        }
    }
}

@Suite("Clock repair")
struct ClockRepairTests {
    static let trueStart: Int64 = 1_795_000_000 * 1_000_000_000
    static let wrongStart: Int64 = 1_700_000_000 * 1_000_000_000
    /// The daemon's settings for the held queue: no eviction by (untrustworthy) age.
    static let heldSettings = Gateway.queueSettings(GatewayConfiguration.Queue(), logger: Logger(label: "test"), held: true)

    static func sample(at time: CaptureTime) -> HeartRateSample {
        HeartRateSample(
            id: UUID(), sensor: BluetoothAddress("F0:1D:2E:3C:00:01")!, patientID: "40001",
            measurement: HeartRateMeasurement(bpm: 70, contact: .detected), captured: time)
    }

    @Test("a sample from this boot gets the wall time the synchronised clock implies for its monotonic time")
    func restampUsesTheMonotonicOffset() throws {
        let boot = UUID()
        let captured = CaptureTime(wallClockNanoseconds: Self.wrongStart, wallClockSynchronized: false, monotonicNanoseconds: 5_000_000_000, bootID: boot)
        let now = CaptureTime(
            wallClockNanoseconds: Self.trueStart + 60_000_000_000, wallClockSynchronized: true, monotonicNanoseconds: 65_000_000_000, bootID: boot)
        let repaired = try #require(ClockRepair.restamp(Self.sample(at: captured), now: now))
        #expect(repaired.captured.wallClockNanoseconds == Self.trueStart)
        #expect(repaired.captured.wallClockSynchronized)
        #expect(repaired.captured.monotonicNanoseconds == 5_000_000_000)
    }

    @Test("a sample from another boot cannot be re-stamped")
    func otherBootIsUnrepairable() {
        let captured = CaptureTime(wallClockNanoseconds: Self.wrongStart, wallClockSynchronized: false, monotonicNanoseconds: 1, bootID: UUID())
        let now = CaptureTime(wallClockNanoseconds: Self.trueStart, wallClockSynchronized: true, monotonicNanoseconds: 2, bootID: UUID())
        #expect(ClockRepair.restamp(Self.sample(at: captured), now: now) == nil)
    }

    @Test("samples captured before sync wait in the held queue, then reach the upload queue re-stamped; other boots become dead letters")
    func heldSamplesAreRepairedOnceTheClockSyncs() async throws {
        let directory = try TemporaryDirectory("clock-repair")
        defer { directory.remove() }
        let source = FakeClockSource(wall: Self.wrongStart, monotonic: 10_000_000_000)
        let clock = CaptureClock(source: source)
        let held = try OfflineQueue(path: directory.file(HeldSamples.fileName), configuration: Self.heldSettings)
        let queue = try OfflineQueue(path: directory.file("queue.sqlite"))
        let counters = DaemonCounters()
        let buffer = SampleBuffer()
        let intake = SampleIntake(buffer: buffer, queue: queue, held: held, counters: counters, logger: Logger(label: "test"))
        let repair = ClockRepairService(held: held, queue: queue, clock: clock, counters: counters, logger: Logger(label: "test"))
        let intakeTask = Task { try await intake.run() }

        var captured: [HeartRateSample] = []
        for _ in 0 ..< 5 {
            captured.append(Self.sample(at: clock.now()))
            buffer.add(captured.last!)
            source.advance(seconds: 1)
        }
        var foreign = Self.sample(at: clock.now())
        foreign.captured.bootID = UUID()
        buffer.add(foreign)
        try await waitUntil(polling: .milliseconds(50)) { try await held.stats().pending == 6 }

        try await repair.releaseIfAllowed()
        #expect(try await held.stats().pending == 6, "nothing moves while the clock is unsynchronised")

        source.advance(seconds: 100)
        let trueNow = Self.trueStart + 105_000_000_000
        source.synchronize(wall: trueNow)
        try await repair.releaseIfAllowed()

        #expect(try await held.stats().pending == 0)
        let lease = try await queue.lease(max: 10)
        let moved = try lease.records.map { try SampleRecordCodec.sample(from: $0) }
        #expect(moved.map(\.id) == captured.map(\.id))
        for (index, sample) in moved.enumerated() {
            #expect(sample.captured.wallClockNanoseconds == Self.trueStart + Int64(index) * 1_000_000_000)
            #expect(sample.captured.wallClockSynchronized)
        }
        let dead = try await queue.deadLetters()
        #expect(dead.count == 1)
        #expect(dead.first?.reason.hasPrefix("clock-unrepairable") == true)

        buffer.close()
        try await intakeTask.value
        await held.close()
        await queue.close()
    }

    @Test("with the hold switched off, samples held before are released at once: this boot's re-stamped, another boot's dead letters")
    func heldSamplesAreReleasedWhenTheHoldIsOff() async throws {
        let directory = try TemporaryDirectory("clock-hold-off")
        defer { directory.remove() }
        let start = SystemClockSource().wallClockNanoseconds()
        let source = FakeClockSource(wall: start, monotonic: 10_000_000_000)
        let clock = CaptureClock(source: source)
        let held = try OfflineQueue(path: directory.file(HeldSamples.fileName), configuration: Self.heldSettings)
        let queue = try OfflineQueue(path: directory.file("queue.sqlite"))
        let ours = Self.sample(at: clock.now())
        var foreign = Self.sample(at: clock.now())
        foreign.captured.bootID = UUID()
        try await held.append(contentsOf: [ours, foreign].map(SampleRecordCodec.record(for:)))
        source.advance(seconds: 30)

        let holding = ClockRepairService(held: held, queue: queue, clock: clock, counters: DaemonCounters(), logger: Logger(label: "test"))
        #expect(try await holding.releaseIfAllowed().total == 0, "the hold keeps them while the clock is unsynchronised")
        var released = ClockRepairService(held: held, queue: queue, clock: clock, counters: DaemonCounters(), logger: Logger(label: "test"))
        released.holdUnsynchronized = false
        #expect(try await released.releaseIfAllowed() == HeldSamples.Release(repaired: 1, unrepairable: 1, undecodable: 0))

        #expect(try await held.stats().pending == 0)
        let moved = try await queue.lease(max: 10).records.map { try SampleRecordCodec.sample(from: $0) }
        #expect(moved.map(\.id) == [ours.id])
        #expect(moved.first?.captured.wallClockNanoseconds == start, "re-stamped against the clock the operator vouches for")
        #expect(try await queue.deadLetters().map { $0.reason.prefix(18) } == ["clock-unrepairable"])
        await held.close()
        await queue.close()
    }
}
