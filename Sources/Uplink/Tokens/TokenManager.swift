#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Owns the access token: hands it out, renews it before it expires or after a 401, and does so
/// one renewal at a time however many uploads ask at once (a refresh token dies on first use,
/// so two concurrent refreshes would lose the grant).
///
/// A renewed token pair is written to the credentials file **before** it is handed out. When the
/// server answers `invalid_grant`, the credentials are marked "re-enrolment required" on disk,
/// which stops uploads (samples keep buffering) until `edge-gateway enroll` runs again.
package actor TokenManager {
    private let store: any CredentialsPersistence
    private let transport: any HTTPTransport
    private let timeout: Duration
    private let serverSettings: ServerSettings
    private let refreshMargin: Int64
    private let now: @Sendable () -> Int64
    private var credentials: Credentials?
    /// A renewed pair the store could not yet persist: never handed out until it is saved.
    private var unsaved: Credentials?
    private var renewal: Task<Credentials, any Error>?
    /// When the last renewal went out and got no whole answer (a timeout, a dropped
    /// connection): the server may have rotated the refresh token anyway.
    private var unansweredRenewalAt: Int64?
    /// How many renewals reached the server (for tests and status).
    package private(set) var renewalCount = 0

    /// A manager over `store` that talks to the server `serverSettings` allows. It renews a
    /// token when fewer than `refreshMargin` seconds, or a fifth of the token's lifetime if that
    /// is less, are left: a 2-week token is renewed 5 minutes early, a 30-second one 6 s early,
    /// and neither on every upload.
    package init(
        store: any CredentialsPersistence, transport: any HTTPTransport, timeout: Duration = .seconds(30),
        serverSettings: ServerSettings = ServerSettings(), refreshMargin: Int64 = 300,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.store = store
        self.transport = transport
        self.timeout = timeout
        self.serverSettings = serverSettings
        self.refreshMargin = refreshMargin
        self.now = now
    }

    /// The current credentials: loaded from the store on first use, and read again while
    /// re-enrolment is required, so that a running daemon picks up a new `enroll` at once.
    package func current() throws(UplinkError) -> Credentials {
        if let credentials, credentials.reenrolmentRequired == nil { return credentials }
        guard let loaded = try store.load() ?? credentials else {
            throw UplinkError(.notEnrolled, "this gateway is not enrolled; run `edge-gateway enroll LINK_OR_CODE` (or --client-credentials KEY --base-url URL)")
        }
        // A new enrolment starts a new grant: what became of the old one's renewals is moot.
        if loaded.refreshToken != credentials?.refreshToken || loaded.accessToken != credentials?.accessToken { unansweredRenewalAt = nil }
        credentials = loaded
        return loaded
    }

    /// Where uploads go: the enrolled server, unless the configuration names another one
    /// (`uplink.server-moved`: then no token may be sent anywhere).
    package func server() throws(UplinkError) -> ServerAddress {
        try serverSettings.server(for: try current())
    }

    /// A usable access token, renewed first if it expires within the margin.
    package func accessToken() async throws(UplinkError) -> String {
        try persistUnsaved()
        let current = try current()
        try Self.requireEnrolled(current)
        _ = try serverSettings.server(for: current)
        if current.expiresAt - now() > margin(for: current) { return current.accessToken }
        return try await renew(replacing: current.accessToken).accessToken
    }

    /// Seconds before expiry at which `credentials`' token is renewed.
    func margin(for credentials: Credentials) -> Int64 {
        min(refreshMargin, max(1, (credentials.tokenLifetime ?? .max) / 5))
    }

    /// Called after the server answered 401 to `rejected`: renews once, and callers that were
    /// rejected with the same token share that one renewal.
    package func tokenAfterUnauthorized(_ rejected: String) async throws(UplinkError) -> String {
        try persistUnsaved()
        let current = try current()
        try Self.requireEnrolled(current)
        _ = try serverSettings.server(for: current)
        if current.accessToken != rejected { return current.accessToken }
        return try await renew(replacing: rejected).accessToken
    }

    private func renew(replacing token: String) async throws(UplinkError) -> Credentials {
        if let renewal {
            return try await Self.awaitRenewal(renewal)
        }
        let task = Task { try await self.performRenewal() }
        renewal = task
        defer { renewal = nil }
        return try await Self.awaitRenewal(task)
    }

    private static func awaitRenewal(_ task: Task<Credentials, any Error>) async throws(UplinkError) -> Credentials {
        do {
            return try await task.value
        } catch let error as UplinkError {
            throw error
        } catch {
            throw UplinkError(.tokenRequestFailed, "token renewal failed: \(error)")
        }
    }

    private func performRenewal() async throws -> Credentials {
        var renewed = try current()
        // A renewal the server completes but whose answer is lost costs the grant (the old
        // refresh token is revoked on use), so it gets at least a minute, however short the
        // uploads' deadline.
        let endpoint = TokenEndpoint(server: renewed.server, transport: transport, timeout: max(timeout, Self.minimumRenewalTimeout))
        renewalCount += 1
        let reply: TokenResponse
        do {
            switch renewed.kind {
            case .patient:
                guard let refreshToken = renewed.refreshToken, let clientID = renewed.clientID else {
                    throw TokenRequestError.invalidGrant
                }
                reply = try await endpoint.refresh(refreshToken: refreshToken, clientID: clientID)
            case .clientCredentials:
                guard let key = renewed.clientKey else { throw TokenRequestError.invalidGrant }
                reply = try await endpoint.clientCredentials(key: key)
            }
        } catch TokenRequestError.invalidGrant {
            throw markReenrolmentRequired(renewed)
        } catch TokenRequestError.other(let error) {
            if error.mayHaveReachedServer { unansweredRenewalAt = now() }
            throw error
        }
        unansweredRenewalAt = nil
        renewed.accessToken = reply.accessToken
        renewed.refreshToken = reply.refreshToken ?? (renewed.kind == .patient ? nil : renewed.refreshToken)
        renewed.expiresAt = reply.expiresAt(receivedAt: now())
        renewed.tokenLifetime = reply.lifetime
        credentials = renewed
        unsaved = renewed
        try persistUnsaved()
        return renewed
    }

    private func persistUnsaved() throws(UplinkError) {
        guard let pending = unsaved else { return }
        try store.save(pending)
        unsaved = nil
    }

    /// The shortest deadline a renewal gets.
    static let minimumRenewalTimeout: Duration = .seconds(60)

    private func markReenrolmentRequired(_ stale: Credentials) -> UplinkError {
        var marked = stale
        var reason = "the server no longer accepts this gateway's grant (invalid_grant)"
        if let unanswered = unansweredRenewalAt {
            reason +=
                ", right after a renewal \(max(0, now() - unanswered)) s earlier got no answer: the server most likely completed that renewal and revoked the refresh token this gateway still held. Ask the JHE operator to set django-oauth-toolkit's REFRESH_TOKEN_GRACE_PERIOD_SECONDS (e.g. 120), so a renewal whose answer is lost can be repeated"
        }
        marked.reenrolmentRequired = reason
        credentials = marked
        try? store.save(marked)
        return Self.reenrolmentError(reason)
    }

    private static func requireEnrolled(_ credentials: Credentials) throws(UplinkError) {
        if let reason = credentials.reenrolmentRequired { throw reenrolmentError(reason) }
    }

    private static func reenrolmentError(_ reason: String) -> UplinkError {
        UplinkError(
            .reenrolmentRequired,
            "re-enrolment required: \(reason). Uploads are stopped and samples keep buffering; run `edge-gateway enroll` with a new invitation link")
    }
}
