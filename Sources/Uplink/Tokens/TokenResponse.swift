/// A successful `/o/token/` reply.
struct TokenResponse: Decodable, Sendable {
    let accessToken: String
    let expiresIn: Int64?
    let tokenType: String?
    let refreshToken: String?

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
        case refreshToken = "refresh_token"
    }

    /// The token's lifetime in seconds as the gateway uses it: `expires_in` (an hour when the
    /// server leaves it out), kept between 1 s and a year so that a hostile or broken value
    /// (negative, or `Int64.max`) can neither trap the sum with the current time nor make a
    /// token look valid for ever.
    var lifetime: Int64 {
        min(max(expiresIn ?? 3600, 1), 365 * 24 * 3600)
    }

    /// When the token expires, seconds since 1970, for a reply received at `now`.
    func expiresAt(receivedAt now: Int64) -> Int64 {
        now.addingReportingOverflow(lifetime).overflow ? .max : now + lifetime
    }
}

/// An OAuth error reply (`{"error": "invalid_grant", "error_description": …}`).
struct OAuthErrorReply: Decodable, Sendable {
    let error: String
    let errorDescription: String?

    private enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
