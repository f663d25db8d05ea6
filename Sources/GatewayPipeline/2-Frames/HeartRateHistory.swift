/// A strap's heart rate over the last ten minutes, one reading per second of wall-clock time
/// (the last of that second), for the console's chart: a page opened now shows the minutes
/// before it too. A fixed ring of 600 slots, allocated at the strap's first sample and written
/// in place, so a sample costs a store and the memory is 4.8 kB a strap whatever the rate.
package struct HeartRateHistory: Sendable {
    /// The span kept, in seconds.
    package static let seconds = 600

    /// One second's reading: the second (since 1970) it belongs to, 0 for a slot never written.
    private struct Slot {
        var second: UInt32 = 0
        var bpm: UInt16 = 0
    }

    private var slots: [Slot] = []

    /// An empty history.
    package init() {}

    /// Records `bpm`, captured at `wallClock` (nanoseconds since 1970).
    mutating func record(bpm: UInt16, wallClock: Int64) {
        guard wallClock > 0 else { return }
        let second = UInt32(truncatingIfNeeded: wallClock / 1_000_000_000)
        if slots.isEmpty { slots = Array(repeating: Slot(), count: Self.seconds) }
        slots[Int(second % UInt32(Self.seconds))] = Slot(second: second, bpm: bpm)
    }

    /// The readings of the `seconds` ending at `now` (seconds since 1970, itself included), oldest
    /// first.
    package func readings(endingAt now: Int64) -> [(second: Int64, bpm: Int)] {
        slots.lazy
            .filter { $0.second != 0 && Int64($0.second) > now - Int64(Self.seconds) && Int64($0.second) <= now }
            .map { (Int64($0.second), Int($0.bpm)) }
            .sorted { $0.second < $1.second }
    }
}
