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
