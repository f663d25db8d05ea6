import OutputFormats
/// Every failure the uplink reports: a stable code for scripts and metrics plus a message that
/// says what happened, to what, and what the operator can do.
///
/// Messages are built only from non-secret facts: no access token, refresh token, client key,
/// authorization code or PKCE verifier ever reaches `message` (tests check this).
package struct UplinkError: CodedError, Sendable, Equatable {
    /// Stable machine-readable codes.
    package enum Code: String, Sendable, Equatable, CaseIterable {
        case invalidResolution = "uplink.invalid-resolution"
        case invalidInvitation = "uplink.invalid-invitation"
        case unsupportedInvitationFormat = "uplink.unsupported-invitation-format"
        case invalidBaseURL = "uplink.invalid-base-url"
        case insecureURL = "uplink.insecure-url"
        case invitationNotFound = "uplink.invitation-not-found"
        case invitationReissued = "uplink.invitation-reissued"
        case invitationExpired = "uplink.invitation-expired"
        case invitationCancelled = "uplink.invitation-cancelled"
        case tokenRequestFailed = "uplink.token-request-failed"
        case invalidClientKey = "uplink.invalid-client-key"
        case profileUnavailable = "uplink.profile-unavailable"
        case noDevice = "uplink.no-device"
        case ambiguousDevice = "uplink.ambiguous-device"
        case reenrolmentRequired = "uplink.reenrolment-required"
        case notEnrolled = "uplink.not-enrolled"
        case credentialsUnreadable = "uplink.credentials-unreadable"
        case credentialsWriteFailed = "uplink.credentials-write-failed"
        case connectionFailed = "uplink.connection-failed"
        case timedOut = "uplink.timed-out"
        case unexpectedReply = "uplink.unexpected-reply"
        case unauthorized = "uplink.unauthorized"
        case invalidCAFile = "uplink.invalid-ca-file"
        case serverMoved = "uplink.server-moved"
        case unencodableValue = "uplink.unencodable-value"
    }

    /// What kind of failure.
    package let code: Code
    /// What happened and what to do, for a person.
    package let message: String
    /// Whether the request may have reached the server though no whole reply came back (a
    /// timeout, a connection dropped mid-exchange): the server may have acted on it. False for a
    /// refused connection, a failed name lookup or TLS handshake, and every answered request.
    package let mayHaveReachedServer: Bool

    /// An error from its code and message.
    package init(_ code: Code, _ message: String, mayHaveReachedServer: Bool = false) {
        self.code = code
        self.message = message
        self.mayHaveReachedServer = mayHaveReachedServer
    }

}
