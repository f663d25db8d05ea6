import CLinux
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The three clock readings capture and repair need, behind a protocol so tests can play an
/// unsynchronised clock that later synchronises (a Raspberry Pi has no battery clock).
package protocol ClockSource: Sendable {
    /// `CLOCK_REALTIME`, nanoseconds since 1970.
    func wallClockNanoseconds() -> Int64
    /// `CLOCK_BOOTTIME`: monotonic, counts suspend, restarts at boot.
    func monotonicNanoseconds() -> UInt64
    /// Whether the wall clock is synchronised (NTP cleared `STA_UNSYNC`).
    func isSynchronized() -> Bool
    /// The kernel's id of the current boot: monotonic readings compare only within one boot.
    var bootID: UUID { get }
}

/// The machine's clocks.
package struct SystemClockSource: ClockSource {
    /// Read once at `init` from `/proc/sys/kernel/random/boot_id`; a random id when unreadable,
    /// so no earlier boot's monotonic readings are taken for this boot's.
    package let bootID: UUID

    /// Reads this boot's id once, from /proc/sys/kernel/random/boot_id.
    package init() {
        let text = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .filter { !$0.isWhitespace }
        bootID = text.flatMap(UUID.init(uuidString:)) ?? UUID()
    }

    /// `CLOCK_REALTIME` in nanoseconds since 1970: may be wrong until the clock synchronises.
    package func wallClockNanoseconds() -> Int64 { Self.nanoseconds(CLOCK_REALTIME) }

    /// `CLOCK_BOOTTIME` in nanoseconds: counts suspend, never steps, starts again at boot.
    package func monotonicNanoseconds() -> UInt64 { UInt64(Self.nanoseconds(CLOCK_BOOTTIME)) }

    /// As `timedatectl` reports it: `adjtimex` without `TIME_ERROR` and with `STA_UNSYNC` clear.
    /// A failed call (a seccomp filter or `ProtectClock=` refusing `clock_adjtime`) counts as
    /// not synchronised: claiming sync would let wrong times through unrepaired.
    package func isSynchronized() -> Bool { Self.kernelSaysSynchronized() }

    /// `isSynchronized` without an instance, which would read the boot id from /proc: status
    /// and the console ask this every second a page is open.
    package static func kernelSaysSynchronized() -> Bool {
        var status = timex()
        let state = adjtimex(&status)
        return state != -1 && state != TIME_ERROR && status.status & STA_UNSYNC == 0
    }

    private static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
