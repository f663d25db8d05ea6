#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JHE's OAuth token endpoint (`POST /o/token/`, form-encoded): the three grants the gateway uses.
struct TokenEndpoint: Sendable {
    let server: ServerAddress
    let transport: any HTTPTransport
    let timeout: Duration

    /// Exchanges an authorization code with its PKCE verifier.
    func exchange(code: String, clientID: String, redirectURI: String, verifier: String) async throws(TokenRequestError) -> TokenResponse {
        try await request(
            [
                ("grant_type", "authorization_code"), ("code", code), ("client_id", clientID),
                ("redirect_uri", redirectURI), ("code_verifier", verifier),
            ], basicKey: nil, what: "exchanging the invitation's authorization code")
    }

    /// Rotates the refresh token (the old pair dies on the server at once).
    func refresh(refreshToken: String, clientID: String) async throws(TokenRequestError) -> TokenResponse {
        try await request(
            [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientID),
            ], basicKey: nil, what: "refreshing the access token")
    }

    /// A practitioner API client's token, with `Authorization: Basic <key>`.
    func clientCredentials(key: String) async throws(TokenRequestError) -> TokenResponse {
        try await request([("grant_type", "client_credentials")], basicKey: key, what: "requesting a client-credentials token")
    }

    private func request(_ fields: [(String, String)], basicKey: String?, what: String) async throws(TokenRequestError) -> TokenResponse {
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
        if let basicKey { headers.append(("Authorization", "Basic " + basicKey)) }
        let reply: TransportResponse
        do {
            reply = try await transport.send(
                TransportRequest(
                    method: "POST", url: server.url("/o/token/"), headers: headers,
                    body: Array(FormEncoding.encode(fields).utf8)),
                timeout: timeout)
        } catch {
            throw .other(error)
        }
        return try Self.interpret(reply, host: server.host, clientKeyUsed: basicKey != nil, what: what)
    }

    /// What a token endpoint's reply means: a token (200 with a readable token), a dead grant
    /// (`invalid_grant`, on any status), or a failure worded for the operator. Total over any
    /// status and body the server sends, which the fuzzer (`make fuzz`) checks.
    static func interpret(
        _ reply: TransportResponse, host: String, clientKeyUsed: Bool, what: String
    ) throws(TokenRequestError) -> TokenResponse {
        if reply.status == 200, let token = try? JSONDecoder().decode(TokenResponse.self, from: reply.body) {
            return token
        }
        let oauth = try? JSONDecoder().decode(OAuthErrorReply.self, from: reply.body)
        if oauth?.error == "invalid_grant" { throw .invalidGrant }
        if reply.status == 401 && clientKeyUsed {
            throw .other(
                UplinkError(
                    .invalidClientKey,
                    "\(host) rejected the client-credentials key while \(what) (HTTP 401 \(oauth?.error ?? "")); check the key with the practitioner who issued it"
                ))
        }
        let detail = oauth.map { "\($0.error)\($0.errorDescription.map { ": " + $0 } ?? "")" } ?? "no OAuth error in the reply"
        throw .other(UplinkError(.tokenRequestFailed, "\(host) refused \(what): HTTP \(reply.status), \(detail)"))
    }
}

/// How a token request failed.
enum TokenRequestError: Error {
    /// The grant (code or refresh token) is dead: only re-enrolment helps.
    case invalidGrant
    /// Anything else, already worded for the operator.
    case other(UplinkError)

    /// The failure as an `UplinkError`, with `invalidGrant` worded by the caller.
    func uplinkError(invalidGrant: @autoclosure () -> UplinkError) -> UplinkError {
        switch self {
        case .invalidGrant: invalidGrant()
        case .other(let error): error
        }
    }
}
