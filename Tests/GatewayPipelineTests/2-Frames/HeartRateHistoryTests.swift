@testable import GatewayPipeline
import Testing

@Suite("Frames: a strap's last ten minutes of heart rate")
struct HeartRateHistoryTests {
    static let second: Int64 = 1_000_000_000
    static let start: Int64 = 1_800_000_000

    @Test("keeps the last reading of each second, oldest first, and only the ten minutes before now")
    func lastReadingOfEachSecond() {
        var history = HeartRateHistory()
        #expect(history.readings(endingAt: Self.start).isEmpty)
        for offset in 0 ..< 700 where offset % 7 != 3 {
            history.record(bpm: UInt16(60 + offset % 50), wallClock: (Self.start + Int64(offset)) * Self.second)
            history.record(bpm: UInt16(100 + offset % 50), wallClock: (Self.start + Int64(offset)) * Self.second + 900_000_000)
        }
        let now = Self.start + 699
        let readings = history.readings(endingAt: now)
        let offsets: [Int] = (100 ..< 700).filter { $0 % 7 != 3 }
        let seconds: [Int64] = readings.map { $0.second }
        let rates: [Int] = readings.map { $0.bpm }
        #expect(seconds == offsets.map { Self.start + Int64($0) }, "a second without a sample has no reading; older than 600 s is gone")
        #expect(rates == offsets.map { 100 + $0 % 50 }, "the later sample of a second wins")
        #expect(history.readings(endingAt: now + 600).isEmpty, "ten minutes later nothing is recent")
        #expect(history.readings(endingAt: Self.start + 200).last?.second == Self.start + 200, "nothing after now")
    }

    @Test("after a gap the seconds in it have no reading, the span's older ones stay; a clock stepped back ten minutes or more starts afresh")
    func gapsAndClockSteps() {
        var history = HeartRateHistory()
        for offset in 0 ..< 100 { history.record(bpm: 70, wallClock: (Self.start + Int64(offset)) * Self.second) }
        history.record(bpm: 90, wallClock: (Self.start + 650) * Self.second)
        let afterGap = history.readings(endingAt: Self.start + 650)
        #expect(afterGap.map(\.second) == (51 ..< 100).map { Self.start + Int64($0) } + [Self.start + 650])
        #expect(afterGap.map(\.bpm) == Array(repeating: 70, count: 49) + [90])
        history.record(bpm: 80, wallClock: (Self.start + 640) * Self.second)
        #expect(history.readings(endingAt: Self.start + 645).last.map { [$0.second, Int64($0.bpm)] } == [Self.start + 640, 80], "a few seconds back")
        history.record(bpm: 60, wallClock: (Self.start - 3_600) * Self.second)
        let afterStep = history.readings(endingAt: Self.start - 3_600)
        #expect(afterStep.map(\.second) == [Self.start - 3_600] && afterStep.map(\.bpm) == [60])
        #expect(history.readings(endingAt: Self.start + 650).isEmpty, "what lay after the new time is gone")
    }

    @Test("a capture time of zero or before 1970 (no wall clock) is not charted")
    func noWallClock() {
        var history = HeartRateHistory()
        history.record(bpm: 70, wallClock: 0)
        history.record(bpm: 70, wallClock: -5 * Self.second)
        #expect(history.readings(endingAt: 10).isEmpty)
    }
}
