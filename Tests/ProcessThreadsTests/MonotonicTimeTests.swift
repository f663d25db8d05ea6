@testable import ProcessThreads
import Testing

/// Aligned sleeps: waits of about one length that start apart end on one shared instant.
@Suite("Process threads: sleeps aligned to a grid")
struct MonotonicTimeTests {
    @Test("a delay ends on the first multiple of the grid at or after the wanted time")
    func delayEndsOnTheGrid() {
        let second: UInt64 = 1_000_000_000
        #expect(MonotonicTime.delay(.seconds(15), from: 100 * second, alignedTo: .seconds(5)) == 15 * second)
        #expect(MonotonicTime.delay(.seconds(15), from: 100 * second + 1, alignedTo: .seconds(5)) == 20 * second - 1)
        #expect(MonotonicTime.delay(.milliseconds(14_200), from: 102 * second, alignedTo: .seconds(5)) == 18 * second)
        #expect(MonotonicTime.delay(.zero, from: 7 * second, alignedTo: .seconds(5)) == 3 * second)
        #expect(MonotonicTime.delay(.seconds(-3), from: 10 * second, alignedTo: .seconds(5)) == 0)
        #expect(MonotonicTime.delay(.milliseconds(1), from: 10 * second, alignedTo: .zero) == 1_000_000, "no grid: the delay as asked")
    }

    @Test("deadlines a few seconds apart, from straps that last sent at different moments, fall due together")
    func nearbyDeadlinesShareAnInstant() {
        let grid = Duration.seconds(5)
        let starts: [UInt64] = [100_200_000_000, 101_700_000_000, 102_900_000_000]
        let ends = starts.map { $0 + MonotonicTime.delay(.seconds(12), from: $0, alignedTo: grid) }
        #expect(Set(ends) == [115_000_000_000])
        #expect(zip(starts, ends).allSatisfy { start, end in end >= start + 12_000_000_000 && end - start < 17_000_000_000 })
    }

    @Test("a wait too long to count stays far in the future instead of wrapping around")
    func longWaitsDoNotWrap() {
        let delay = MonotonicTime.delay(.seconds(Int64.max), from: 1_000, alignedTo: .seconds(5))
        #expect(delay > UInt64(Int64.max) / 4)
        #expect(Int64(clamping: delay) > 0)
    }
}
