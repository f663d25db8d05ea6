@testable import GatewayPipeline
import Testing

@Suite("Capture clock")
struct CaptureClockTests {
    @Test("asks whether the clock is synchronised at most once a second of monotonic time, and sees a change after that")
    func synchronisationIsReadOncePerSecond() {
        let source = FakeClockSource(wall: ClockRepairTests.wrongStart, monotonic: 5_000_000_000)
        let clock = CaptureClock(source: source)
        #expect(clock.now().wallClockSynchronized == false)

        source.synchronize(wall: ClockRepairTests.trueStart)
        let stamp = clock.now()
        #expect(stamp.wallClockSynchronized == false, "the reading is less than a second old")
        #expect(stamp.wallClockNanoseconds == ClockRepairTests.trueStart, "the wall clock itself is read every time")

        source.advance(seconds: 1)
        #expect(clock.now().wallClockSynchronized == true)
    }

    @Test("a sample that arrived earlier is stamped with its arrival on the wall clock and the monotonic clock")
    func earlierArrival() {
        let source = FakeClockSource(wall: ClockRepairTests.wrongStart, monotonic: 5_000_000_000)
        let clock = CaptureClock(source: source)
        let stamp = clock.now(arrivedNanosecondsAgo: 180_000_000)
        #expect(stamp.wallClockNanoseconds == ClockRepairTests.wrongStart - 180_000_000)
        #expect(stamp.monotonicNanoseconds == 4_820_000_000)
        #expect(stamp.bootID == source.bootID)
        let now = clock.now()
        #expect(now.wallClockNanoseconds == ClockRepairTests.wrongStart)
        #expect(now.monotonicNanoseconds == 5_000_000_000)
    }

    @Test("an arrival said to precede the boot is stamped at the boot, never before it")
    func arrivalBeforeBoot() {
        let source = FakeClockSource(wall: ClockRepairTests.wrongStart, monotonic: 2_000)
        let stamp = CaptureClock(source: source).now(arrivedNanosecondsAgo: 5_000)
        #expect(stamp.monotonicNanoseconds == 0)
        #expect(stamp.wallClockNanoseconds == ClockRepairTests.wrongStart - 2_000)
    }

    @Test("a clock that starts synchronised stamps its first sample so")
    func firstStampReadsTheClock() {
        let source = FakeClockSource(wall: ClockRepairTests.wrongStart, monotonic: 0)
        source.synchronize(wall: ClockRepairTests.trueStart)
        #expect(CaptureClock(source: source).now().wallClockSynchronized == true)
    }
}
