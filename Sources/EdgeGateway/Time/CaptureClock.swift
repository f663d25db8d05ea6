import GATTHeartRate

/// Stamps samples on arrival with everything clock repair needs later: wall-clock time, whether
/// the system clock was synchronised, monotonic time since boot, and the boot id.
struct CaptureClock: Sendable {
    let source: any ClockSource

    init(source: any ClockSource = SystemClockSource()) {
        self.source = source
    }

    /// The capture time of a sample arriving now.
    func now() -> CaptureTime {
        CaptureTime(
            wallClockNanoseconds: source.wallClockNanoseconds(),
            wallClockSynchronized: source.isSynchronized(),
            monotonicNanoseconds: source.monotonicNanoseconds(),
            bootID: source.bootID)
    }
}
