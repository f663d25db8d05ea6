import OutputFormats

/// What went wrong with the console's password or TLS: what, with which file, and the fix.
package struct ConsoleSecurityError: CodedError, Sendable {
    /// The stable codes.
    package enum Code: String, Sendable {
        /// The console listens beyond loopback and no password is set.
        case passwordMissing = "web.password-missing"
        /// The password file cannot be read or is not one `web set-password` wrote.
        case passwordUnreadable = "web.password-unreadable"
        /// A new password is refused (too short, the two entries differ).
        case passwordRefused = "web.password-refused"
        /// The certificate or key cannot be read, made or used.
        case tlsIdentity = "web.tls-identity"
        /// OpenSSL failed for a connection or a hash.
        case cryptoFailed = "web.crypto-failed"
    }

    /// What kind of failure.
    package let code: Code
    /// What happened, to which file, and what to do.
    package let message: String

    /// An error of kind `code`, told by `message`.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
