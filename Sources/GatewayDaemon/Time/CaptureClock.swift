import GATTHeartRate

/// Stamps samples on arrival with everything clock repair needs later: wall-clock time, whether
/// the system clock was synchronised, monotonic time since boot, and the boot id.
public struct CaptureClock: Sendable {
    let source: any ClockSource

    /// Stamps from `source`: the system's clocks unless a test supplies its own.
    public init(source: any ClockSource = SystemClockSource()) {
        self.source = source
    }

    /// Whether this machine's clock is synchronised now (for status and doctor).
    static var isSynchronized: Bool { SystemClockSource().isSynchronized() }

    /// The capture time of a sample arriving now.
    public func now() -> CaptureTime {
        CaptureTime(
            wallClockNanoseconds: source.wallClockNanoseconds(),
            wallClockSynchronized: source.isSynchronized(),
            monotonicNanoseconds: source.monotonicNanoseconds(),
            bootID: source.bootID)
    }
}
