/// A strap's heart rate over the last ten minutes, one reading per second of wall-clock time
/// (the last of that second), for the console's chart: a page opened now shows the minutes
/// before it too. A fixed ring of 600 rates and a bit per slot saying it holds one, allocated at
/// the strap's first sample and written in place, so a sample costs a store and the memory is
/// 1.3 kB a strap whatever the rate (a second's own tag in each slot took 4.8 kB).
package struct HeartRateHistory: Sendable {
    /// The span kept, in seconds.
    package static let seconds = 600

    /// The rate of each second of the span ending at `newest`, at the second modulo `seconds`.
    private var rates: [UInt16] = []
    /// One bit per slot of `rates`: set when that second has a reading.
    private var written: [UInt64] = []
    /// The latest second (since 1970) recorded.
    private var newest: Int64 = 0

    /// An empty history.
    package init() {}

    /// Records `bpm`, captured at `wallClock` (nanoseconds since 1970).
    mutating func record(bpm: UInt16, wallClock: Int64) {
        guard wallClock > 0 else { return }
        let second = wallClock / 1_000_000_000
        if rates.isEmpty {
            rates = Array(repeating: 0, count: Self.seconds)
            written = Array(repeating: 0, count: (Self.seconds + 63) / 64)
        }
        if second > newest {
            // The seconds passed since `newest` had no reading: their slots held older ones.
            for skipped in max(newest + 1, second - Int64(Self.seconds) + 1) ..< second { mark(skipped, false) }
            newest = second
        } else if second <= newest - Int64(Self.seconds) {
            // The wall clock stepped back ten minutes or more: all that is kept lies after it.
            written = Array(repeating: 0, count: written.count)
            newest = second
        }
        rates[Self.slot(second)] = bpm
        mark(second, true)
    }

    /// The readings of the `seconds` ending at `now` (seconds since 1970, itself included), oldest
    /// first.
    package func readings(endingAt now: Int64) -> [(second: Int64, bpm: Int)] {
        let first = max(now, newest) - Int64(Self.seconds) + 1
        guard !rates.isEmpty, first <= min(now, newest) else { return [] }
        return (first ... min(now, newest)).compactMap { second in
            let slot = Self.slot(second)
            return written[slot / 64] & (1 << (slot % 64)) != 0 ? (second, Int(rates[slot])) : nil
        }
    }

    private mutating func mark(_ second: Int64, _ hasReading: Bool) {
        let slot = Self.slot(second)
        if hasReading {
            written[slot / 64] |= 1 << (slot % 64)
        } else {
            written[slot / 64] &= ~(1 << (slot % 64))
        }
    }

    private static func slot(_ second: Int64) -> Int { Int(second % Int64(seconds)) }
}
