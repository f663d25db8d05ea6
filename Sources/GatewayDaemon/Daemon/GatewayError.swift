/// Why `edge-gateway run` cannot start or go on, with a stable `code` for scripts and a message
/// saying what happened, to which file, and what the operator can do.
public struct GatewayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable identifiers; their raw values never change once released.
    public enum Code: String, Sendable, Equatable {
        /// Another `edge-gateway run` holds the state directory.
        case alreadyRunning = "gateway.already-running"
        /// The state directory (or its lock file) cannot be created or opened.
        case stateDirectory = "gateway.state-directory"
        /// The queue's file system refused writes until the samples in memory reached their bound.
        case storageFailed = "gateway.storage-failed"
    }

    /// The stable identifier.
    public let code: Code
    /// What happened, to what, and what to do.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message and its stable code (`… [gateway.already-running]`), as logs and the CLI print it.
    public var description: String { "\(message) [\(code.rawValue)]" }
}
