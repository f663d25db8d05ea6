import GatewayStatus
import Glibc
import OfflineQueue

/// `doctor`'s checks of the box itself: room on the state directory's file system, no damaged
/// queue waiting for import, and a synchronised clock.
enum HostChecks {
    /// Below this much free space the check fails: the queue needs room to keep buffering
    /// through an outage (a day of 10 straps at 1 Hz is roughly 100 MB).
    static let minimumFreeBytes: Int64 = 256 << 20

    /// Free space where the state lives (`statvfs`, space available to unprivileged users).
    static func diskSpace(stateDirectory: String, minimum: Int64 = minimumFreeBytes) -> DoctorCheck {
        guard let space = DiskSpace(of: stateDirectory) else {
            return .fail(
                "disk space", "cannot examine \(stateDirectory): \(String(cString: strerror(errno)))",
                fix: "create the state directory (enroll and pair do) or pass --state-dir")
        }
        if space.readOnly {
            return .fail(
                "disk space", "\(stateDirectory) is on a file system mounted read-only: the queue cannot take samples",
                fix:
                    "look for disk errors (dmesg): an SD card's file system is remounted read-only after an error; check it (fsck) or replace the card, then remount it read-write"
            )
        }
        return diskSpace(free: space.freeBytes, total: space.totalBytes, directory: stateDirectory, minimum: minimum)
    }

    /// The verdict for `free` of `total` bytes.
    static func diskSpace(free: Int64, total: Int64, directory: String, minimum: Int64) -> DoctorCheck {
        let detail = "\(megabytes(free)) MB free of \(megabytes(total)) MB in \(directory)"
        guard free >= minimum else {
            return .fail(
                "disk space", "only " + detail + " (under \(megabytes(minimum)) MB)",
                fix: "free space on that file system; when it is full the queue stops accepting samples")
        }
        return .pass("disk space", detail)
    }

    /// Whether the kernel says the clock is synchronised, and what that means for samples
    /// under `[gateway] hold_until_clock_sync` (`holding`).
    static func clock(synchronized: Bool, holding: Bool) -> DoctorCheck {
        guard !synchronized else { return .pass("clock", "synchronised") }
        let effect =
            holding
            ? "samples are held until it is, then re-stamped"
            : "samples are uploaded with its time: hold_until_clock_sync is off"
        return .fail(
            "clock", "not synchronised (\(effect))",
            fix: "enable NTP: timedatectl set-ntp true, and check that the box reaches its time servers")
    }

    /// Damaged queue files moved aside whose records have not been imported.
    static func movedAside(_ files: [MovedAsideQueue]) -> DoctorCheck {
        guard !files.isEmpty else { return .pass("queue files", "no damaged queue moved aside") }
        return .fail(
            "queue files", "\(files.count) damaged queue file(s) moved aside, records not imported: " + files.map(\.path).joined(separator: ", "),
            fix: "edge-gateway queue import (appends their readable records to the live queue)")
    }

    private static func megabytes(_ bytes: Int64) -> Int64 { bytes / 1_000_000 }
}
