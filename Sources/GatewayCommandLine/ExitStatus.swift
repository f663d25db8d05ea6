import ArgumentParser
import GatewayDaemon

/// Exit statuses shared by every command (BSD `sysexits.h`), so scripts can tell a usage
/// mistake from bad data from a missing Bluetooth stack.
public enum ExitStatus {
    /// Bad command-line usage.
    public static let usage = ExitCode(64)
    /// The input data was malformed (for example a truncated frame).
    public static let dataError = ExitCode(65)
    /// A service the command needs is unavailable (BlueZ, the adapter, dbus-daemon).
    public static let unavailable = ExitCode(69)
    /// A file the command must write cannot be opened (the queue belongs to another user, the
    /// file system is read-only, the disk fails): retrying will not help until someone fixes it.
    public static let cannotCreate = ExitCode(73)
    /// A temporary failure: trying again later may work (a strap out of range, `InProgress`).
    public static let temporaryFailure = ExitCode(75)
    /// The configuration (file or `EDGE_GATEWAY_*` override) is wrong: nothing was started.
    public static let configuration = ExitCode(78)
}
