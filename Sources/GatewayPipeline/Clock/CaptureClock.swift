import GATTHeartRate
import Synchronization

/// Stamps samples on arrival with everything clock repair needs later: wall-clock time, whether
/// the system clock was synchronised, monotonic time since boot, and the boot id.
package struct CaptureClock: Sendable {
    /// Where the time comes from (the system, or a test's own clock).
    package let source: any ClockSource
    private let synchronization = SynchronizationReading()

    /// Stamps from `source`: the system's clocks unless a test supplies its own.
    package init(source: any ClockSource = SystemClockSource()) {
        self.source = source
    }

    /// Whether this machine's clock is synchronised now (for status and doctor).
    package static var isSynchronized: Bool { SystemClockSource.kernelSaysSynchronized() }

    /// The capture time of a sample arriving now.
    package func now() -> CaptureTime {
        now(arrivedNanosecondsAgo: 0)
    }

    /// The capture time of a sample that arrived `arrivedNanosecondsAgo` (a notification read
    /// some time after the kernel received it). Whether the clock is synchronised is asked
    /// at most once a second (`adjtimex` takes the kernel's timekeeping lock; ten straps ask
    /// ten times a second each): a stamp made within a second of a change may carry the state
    /// before it, which repair handles either way, since both readings are right then.
    package func now(arrivedNanosecondsAgo: UInt64) -> CaptureTime {
        let now = source.monotonicNanoseconds()
        let age = min(arrivedNanosecondsAgo, now)
        let wall = source.wallClockNanoseconds() - Int64(age)
        let monotonic = now - age
        return CaptureTime(
            wallClockNanoseconds: wall,
            wallClockSynchronized: synchronization.value(at: now) { source.isSynchronized() },
            monotonicNanoseconds: monotonic,
            bootID: source.bootID)
    }
}

/// The last synchronisation reading and when it was taken, in one atomic word: the monotonic
/// time in nanoseconds with its lowest bit replaced by the answer.
private final class SynchronizationReading: Sendable {
    private static let never = UInt64.max
    private static let lifetime: UInt64 = 1_000_000_000
    private let word = Atomic<UInt64>(never)

    /// The reading, taken again by `read` when the last is a second old or more.
    func value(at monotonic: UInt64, read: () -> Bool) -> Bool {
        let last = word.load(ordering: .relaxed)
        if last != Self.never, monotonic >= (last & ~1), monotonic - (last & ~1) < Self.lifetime {
            return last & 1 == 1
        }
        let synchronized = read()
        word.store((monotonic & ~1) | (synchronized ? 1 : 0), ordering: .relaxed)
        return synchronized
    }
}
