import ArgumentParser

/// Exit statuses shared by every command of both programs (BSD `sysexits.h`, plus 1 for "the
/// answer is no"), so scripts can tell a usage mistake from bad data from a missing Bluetooth
/// stack from a network that may come back. Commands take their status from here and nowhere else.
package enum ExitStatus {
    /// The command ran and its answer is no: a `doctor` check failed, the gateway is not
    /// enrolled, a lab run lost or duplicated samples. Not an error of the command itself.
    package static let negative = ExitCode(1)
    /// `run` found another `edge-gateway run` on its state directory and did not start (outside
    /// `sysexits.h`: nothing is broken, and systemd may start it again once the other is gone).
    package static let alreadyRunning = ExitCode(3)
    /// Bad command-line usage.
    package static let usage = ExitCode(64)
    /// The input data was malformed (for example a truncated frame, a bad invitation link).
    package static let dataError = ExitCode(65)
    /// A file the command reads is not there (no queue yet).
    package static let noInput = ExitCode(66)
    /// A service the command needs is unavailable (BlueZ, the adapter, dbus-daemon, JHE's answer).
    package static let unavailable = ExitCode(69)
    /// Something this program did not expect went wrong: a bug to report.
    package static let software = ExitCode(70)
    /// A file the command must write cannot be opened (the queue belongs to another user, the
    /// file system is read-only, the disk fails): retrying will not help until someone fixes it.
    package static let cannotCreate = ExitCode(73)
    /// A file could not be read or written though it is there (a disk error, a full disk).
    package static let ioError = ExitCode(74)
    /// A temporary failure: trying again later may work (a strap out of range, `InProgress`,
    /// the network or JHE down).
    package static let temporaryFailure = ExitCode(75)
    /// The configuration (file or `EDGE_GATEWAY_*` override) is wrong: nothing was started.
    package static let configuration = ExitCode(78)
}
