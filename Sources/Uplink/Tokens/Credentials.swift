/// Everything the gateway keeps to upload on behalf of its enrolment, stored in the state
/// directory's `credentials.json` (mode 0600). Secrets are never printed: `description` redacts them.
package struct Credentials: Codable, Sendable, Equatable, CustomStringConvertible {
    /// How the tokens were obtained, and so how they are renewed.
    package enum Kind: String, Codable, Sendable {
        /// Patient invitation + PKCE: renewed with the rotating refresh token.
        case patient
        /// Practitioner API client: renewed by asking again with the same key.
        case clientCredentials = "client-credentials"
    }

    /// Which grant.
    package var kind: Kind
    /// The server.
    package var server: ServerAddress
    /// The OAuth client id (patient enrolment; mandatory on refresh).
    package var clientID: String?
    /// The bearer token. Secret.
    package var accessToken: String
    /// The rotating refresh token (patient enrolment). Secret; dies on first reuse.
    package var refreshToken: String?
    /// `base64(client_id:secret)` (client credentials). Secret.
    package var clientKey: String?
    /// When the access token expires, seconds since 1970.
    package var expiresAt: Int64
    /// How long the server said the current access token lives (its `expires_in`), which sets
    /// how early it is renewed; nil in files written before it was recorded.
    package var tokenLifetime: Int64?
    /// The enrolled patient (patient enrolment), the default subject of uploads.
    package var patientID: String?
    /// The JHE data source id sent as `Device/<id>`.
    package var deviceID: String?
    /// Set when the grant is lost (`invalid_grant`): uploads stop until `enroll` is run again.
    package var reenrolmentRequired: String?

    /// Credentials from their parts.
    package init(
        kind: Kind, server: ServerAddress, clientID: String?, accessToken: String, refreshToken: String?,
        clientKey: String?, expiresAt: Int64, tokenLifetime: Int64? = nil, patientID: String?, deviceID: String?,
        reenrolmentRequired: String? = nil
    ) {
        self.kind = kind
        self.server = server
        self.clientID = clientID
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.clientKey = clientKey
        self.expiresAt = expiresAt
        self.tokenLifetime = tokenLifetime
        self.patientID = patientID
        self.deviceID = deviceID
        self.reenrolmentRequired = reenrolmentRequired
    }

    /// Kind, server, patient, device and expiry with every token shown as `<redacted>`: safe to
    /// log or print.
    package var description: String {
        "Credentials(\(kind.rawValue), server: \(server.baseURL), patient: \(patientID ?? "-"), device: \(deviceID ?? "-"), expires: \(expiresAt), tokens: <redacted>)"
    }

    private enum CodingKeys: String, CodingKey {
        case kind
        case server
        case clientID = "client_id"
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case clientKey = "client_key"
        case expiresAt = "expires_at"
        case tokenLifetime = "token_lifetime_s"
        case patientID = "patient_id"
        case deviceID = "device_id"
        case reenrolmentRequired = "reenrolment_required"
    }
}
