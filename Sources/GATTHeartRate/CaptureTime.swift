#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When a sample arrived, recorded so that a wrong wall clock can be repaired later.
///
/// Straps send no timestamps, and a Raspberry Pi without a battery clock can run days off after
/// a cold boot until NTP syncs. Keeping the monotonic time and the boot it belongs to lets the
/// gateway re-stamp samples taken before synchronisation from the offset it learns afterwards.
package struct CaptureTime: Sendable, Hashable, Codable {
    /// Wall-clock time in nanoseconds since 1970-01-01T00:00:00Z. An integer, so stored
    /// samples round-trip exactly whatever encoder writes them.
    package var wallClockNanoseconds: Int64
    /// Whether the system clock was synchronised when the sample was taken.
    package var wallClockSynchronized: Bool
    /// Nanoseconds since boot on a clock that never jumps (`CLOCK_BOOTTIME`).
    package var monotonicNanoseconds: UInt64
    /// The kernel's boot id (`/proc/sys/kernel/random/boot_id`): monotonic times compare only
    /// within one boot.
    package var bootID: UUID

    /// A capture time from its parts.
    package init(
        wallClockNanoseconds: Int64, wallClockSynchronized: Bool,
        monotonicNanoseconds: UInt64, bootID: UUID
    ) {
        self.wallClockNanoseconds = wallClockNanoseconds
        self.wallClockSynchronized = wallClockSynchronized
        self.monotonicNanoseconds = monotonicNanoseconds
        self.bootID = bootID
    }

    /// The wall-clock time as a `Date`.
    package var wallClock: Date {
        Date(timeIntervalSince1970: Double(wallClockNanoseconds) / 1_000_000_000)
    }

    private enum CodingKeys: String, CodingKey {
        case wallClockNanoseconds = "wall_clock_ns"
        case wallClockSynchronized = "wall_clock_synchronized"
        case monotonicNanoseconds = "monotonic_ns"
        case bootID = "boot_id"
    }
}
