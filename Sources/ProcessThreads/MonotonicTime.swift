import Glibc

/// `CLOCK_MONOTONIC` in nanoseconds, the time the executors' timers are kept in.
enum MonotonicTime {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// `duration` in nanoseconds: 0 when negative, and far in the future (not a wrap-around)
    /// when too long to count.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max / 2 : whole &+ UInt64(attoseconds / 1_000_000_000)
    }

    /// How long from `now` until the first multiple of `grid` at or after `now + duration` (in
    /// nanoseconds of this clock): waits of about one length that start at different moments end
    /// at the same instant.
    static func delay(_ duration: Duration, from now: UInt64, alignedTo grid: Duration) -> UInt64 {
        let step = max(1, nanoseconds(grid))
        let due = now &+ nanoseconds(duration)
        let (whole, remainder) = due.quotientAndRemainder(dividingBy: step)
        return (remainder == 0 ? due : (whole &+ 1) &* step) &- now
    }
}
