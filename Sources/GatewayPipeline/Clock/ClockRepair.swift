import GATTHeartRate

/// Re-stamps a sample captured while the wall clock was not synchronised, once it is.
///
/// Within one boot the monotonic clock (`CLOCK_BOOTTIME`) never jumps, so the offset between
/// the synchronised wall clock and the monotonic clock *now* gives the true wall time of any
/// earlier monotonic reading of the same boot. A sample from another boot cannot be repaired:
/// its monotonic reading belongs to a clock that no longer exists.
enum ClockRepair {
    /// The sample with its wall time derived from `now`'s offset, and `now`'s synchronisation
    /// state; nil when it was captured during another boot.
    static func restamp(_ sample: HeartRateSample, now: CaptureTime) -> HeartRateSample? {
        guard sample.captured.bootID == now.bootID else { return nil }
        let offset = now.wallClockNanoseconds - Int64(now.monotonicNanoseconds)
        var repaired = sample
        repaired.captured.wallClockNanoseconds = Int64(sample.captured.monotonicNanoseconds) + offset
        repaired.captured.wallClockSynchronized = now.wallClockSynchronized
        return repaired
    }

    /// The dead-letter reason for a sample that cannot be repaired.
    static func unrepairableReason(_ sample: HeartRateSample) -> String {
        "clock-unrepairable: captured during boot \(sample.captured.bootID) before the clock synchronised, so its true time is unknown; `edge-gateway queue retry-dead --reason clock-unrepairable` uploads it with the time it was stamped with"
    }
}
