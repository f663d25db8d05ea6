import ArgumentParser
import GatewayDaemon

/// Exit statuses shared by every command of both programs (BSD `sysexits.h`, plus 1 for "the
/// answer is no"), so scripts can tell a usage mistake from bad data from a missing Bluetooth
/// stack from a network that may come back. Commands take their status from here and nowhere else.
public enum ExitStatus {
    /// The command ran and its answer is no: a `doctor` check failed, the gateway is not
    /// enrolled, a lab run lost or duplicated samples. Not an error of the command itself.
    public static let negative = ExitCode(1)
    /// `run` found another `edge-gateway run` on its state directory and did not start (outside
    /// `sysexits.h`: nothing is broken, and systemd may start it again once the other is gone).
    public static let alreadyRunning = ExitCode(3)
    /// Bad command-line usage.
    public static let usage = ExitCode(64)
    /// The input data was malformed (for example a truncated frame, a bad invitation link).
    public static let dataError = ExitCode(65)
    /// A file the command reads is not there (no queue yet).
    public static let noInput = ExitCode(66)
    /// A service the command needs is unavailable (BlueZ, the adapter, dbus-daemon, JHE's answer).
    public static let unavailable = ExitCode(69)
    /// Something this program did not expect went wrong: a bug to report.
    public static let software = ExitCode(70)
    /// A file the command must write cannot be opened (the queue belongs to another user, the
    /// file system is read-only, the disk fails): retrying will not help until someone fixes it.
    public static let cannotCreate = ExitCode(73)
    /// A file could not be read or written though it is there (a disk error, a full disk).
    public static let ioError = ExitCode(74)
    /// A temporary failure: trying again later may work (a strap out of range, `InProgress`,
    /// the network or JHE down).
    public static let temporaryFailure = ExitCode(75)
    /// The configuration (file or `EDGE_GATEWAY_*` override) is wrong: nothing was started.
    public static let configuration = ExitCode(78)
}
