import CLinux
import Foundation
import GATTHeartRate
#if canImport(Glibc)
import Glibc
#endif

/// Stamps samples on arrival with everything clock repair needs later: wall-clock time, whether
/// the system clock was synchronised, monotonic time since boot, and the boot id.
struct CaptureClock: Sendable {
    /// The kernel's id of the current boot (`/proc/sys/kernel/random/boot_id`).
    let bootID: UUID

    init() {
        let text = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        bootID = text.flatMap(UUID.init(uuidString:)) ?? UUID()
    }

    /// The capture time of a sample arriving now.
    func now() -> CaptureTime {
        CaptureTime(
            wallClockNanoseconds: Self.nanoseconds(CLOCK_REALTIME),
            wallClockSynchronized: Self.isSynchronized,
            monotonicNanoseconds: UInt64(Self.nanoseconds(CLOCK_BOOTTIME)),
            bootID: bootID)
    }

    private static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Whether the kernel considers the clock synchronised (NTP cleared `STA_UNSYNC`), as
    /// `timedatectl` reports it.
    static var isSynchronized: Bool {
        var status = timex()
        let state = adjtimex(&status)
        return state != TIME_ERROR && status.status & STA_UNSYNC == 0
    }
}
