import Glibc

/// The room on the file system that holds a path, as `statvfs` reports it to an unprivileged
/// process: what `doctor` checks and `/metrics` exports for the state directory, since a full
/// or read-only disk is what stops the queue from taking samples.
package struct DiskSpace: Sendable, Equatable {
    /// Bytes an unprivileged process may still write.
    package let freeBytes: Int64
    /// The file system's size in bytes.
    package let totalBytes: Int64
    /// Whether it is mounted read-only (an SD card's ext4 is remounted so after an error).
    package let readOnly: Bool

    /// Figures given (tests, and the verdicts' arithmetic).
    package init(freeBytes: Int64, totalBytes: Int64, readOnly: Bool = false) {
        self.freeBytes = freeBytes
        self.totalBytes = totalBytes
        self.readOnly = readOnly
    }

    /// The file system holding `path`; nil (with `errno` set) when it cannot be examined.
    package init?(of path: String) {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        self.init(
            freeBytes: Int64(info.f_bavail) * Int64(info.f_frsize), totalBytes: Int64(info.f_blocks) * Int64(info.f_frsize),
            readOnly: info.f_flag & UInt(ST_RDONLY) != 0)
    }
}
