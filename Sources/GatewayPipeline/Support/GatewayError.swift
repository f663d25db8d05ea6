import OutputFormats
/// Why `edge-gateway run` cannot start or go on, with a stable `code` for scripts and a message
/// saying what happened, to which file, and what the operator can do.
package struct GatewayError: CodedError, Sendable, Equatable {
    /// Stable identifiers; their raw values never change once released.
    package enum Code: String, Sendable, Equatable {
        /// Another `edge-gateway run` holds the state directory.
        case alreadyRunning = "gateway.already-running"
        /// The state directory (or its lock file) cannot be created or opened.
        case stateDirectory = "gateway.state-directory"
        /// The queue's file system refused writes until the samples in memory reached their bound.
        case storageFailed = "gateway.storage-failed"
    }

    /// The stable identifier.
    package let code: Code
    /// What happened, to what, and what to do.
    package let message: String

    /// An error with its code and the message for the operator.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

}
