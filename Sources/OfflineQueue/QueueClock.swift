import Glibc

/// The wall clock the queue stamps leases, dead letters and ages with.
///
/// Injectable so that lease expiry and `max_age` can be tested by moving time instead of
/// sleeping, and so a host with a known-bad clock could supply a repaired one.
package protocol QueueClock: Sendable {
    /// Nanoseconds since 1970-01-01T00:00:00Z.
    func nanosecondsSince1970() -> Int64
}

/// `CLOCK_REALTIME`, the same clock capture times are taken from.
package struct SystemQueueClock: QueueClock {
    /// The system clock.
    package init() {}

    /// Reads `CLOCK_REALTIME`.
    package func nanosecondsSince1970() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
