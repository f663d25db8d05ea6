import Foundation

/// Invitations and `/o/token/` (contract §2).
extension SimulatorState {
    /// `POST /api/v1/invitation/<token>`: 404 unknown, 403 cancelled, 410 older than 7 days,
    /// 409 reissued or first redeemed more than 12 h ago; otherwise a fresh 60 s grant.
    func redeemInvitation(_ token: String, baseURL: String) -> SimulatorReply {
        guard let invitation = invitations[token] else { return .detail(404, "Not found.") }
        switch invitation.state {
        case .cancelled: return .detail(403, "This invitation has been cancelled.")
        case .reissued: return .detail(409, "This invitation has been reissued; use the newest link.")
        case .active: break
        }
        if now.timeIntervalSince(invitation.issuedAt) > 7 * 86_400 { return .detail(410, "This invitation has expired.") }
        if let redeemed = invitation.redeemedAt, now.timeIntervalSince(redeemed) > 12 * 3600 {
            return .detail(409, "This invitation was already redeemed.")
        }
        if invitation.redeemedAt == nil { invitations[token]?.redeemedAt = now }
        let code = Self.randomToken(length: 30)
        codes[code] = SimulatedAuthorizationCode(
            patientID: invitation.patientID, clientID: Self.publicClientID, redirectURI: Self.redirectURI,
            challenge: PKCEChallenge.forInvitation(token: token), issuedAt: now)
        return .json(
            200,
            [
                "grant": [
                    "grant_type": "authorization_code", "redirect_uri": Self.redirectURI,
                    "client_id": Self.publicClientID, "code": code,
                ],
                "token_endpoint": baseURL + "/o/token/",
                "expires": ISO8601DateFormatter().string(from: now.addingTimeInterval(60)),
            ])
    }

    /// `POST /o/token/`, form-encoded only.
    func token(_ request: SimulatorRequest) -> SimulatorReply {
        counters.tokenRequests += 1
        guard (request.headers["content-type"] ?? "").hasPrefix("application/x-www-form-urlencoded") else {
            return .oauthError(400, "unsupported_grant_type")
        }
        let form = FormBody.parse(request.body)
        switch form["grant_type"] {
        case "authorization_code": return exchangeCode(form)
        case "refresh_token": return refresh(form)
        case "client_credentials": return clientCredentials(authorization: request.headers["authorization"])
        default: return .oauthError(400, "unsupported_grant_type")
        }
    }

    private func exchangeCode(_ form: [String: String]) -> SimulatorReply {
        guard let code = form["code"], let clientID = form["client_id"], clientID == Self.publicClientID else {
            return .oauthError(401, "invalid_client")
        }
        guard let verifier = form["code_verifier"], !verifier.isEmpty else {
            return .oauthError(400, "invalid_request", "Code challenge required.")
        }
        guard let record = codes[code], record.clientID == clientID else { return .oauthError(400, "invalid_grant") }
        guard form["redirect_uri"] == record.redirectURI else {
            return .oauthError(400, "invalid_request", "Mismatching redirect URI.")
        }
        codes[code] = nil
        guard now.timeIntervalSince(record.issuedAt) <= 60 else { return .oauthError(400, "invalid_grant") }
        guard PKCEChallenge.s256(verifier) == record.challenge else { return .oauthError(400, "invalid_grant") }
        return issuePair(patientID: record.patientID, clientID: clientID)
    }

    private func refresh(_ form: [String: String]) -> SimulatorReply {
        guard let clientID = form["client_id"], clientID == Self.publicClientID else {
            return .oauthError(401, "invalid_client")
        }
        guard let token = form["refresh_token"], let record = refreshTokens[token], record.clientID == clientID else {
            return .oauthError(400, "invalid_grant")
        }
        refreshTokens[token] = nil
        accessTokens[record.accessToken]?.revoked = true
        counters.refreshes += 1
        return issuePair(patientID: record.patientID, clientID: clientID)
    }

    private func clientCredentials(authorization: String?) -> SimulatorReply {
        guard let authorization, authorization.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst("Basic ".count))),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":"),
            practitionerClients[String(text[..<colon])] == String(text[text.index(after: colon)...])
        else { return .oauthError(401, "invalid_client") }
        let access = Self.randomToken(length: 30)
        accessTokens[access] = SimulatedAccessToken(
            subject: .practitionerClient(String(text[..<colon])), expiresAt: now.addingTimeInterval(TimeInterval(tokenLifetime)))
        return .json(200, ["access_token": access, "expires_in": tokenLifetime, "token_type": "Bearer", "scope": "openid email"])
    }

    private func issuePair(patientID: Int, clientID: String) -> SimulatorReply {
        let access = Self.randomToken(length: 30)
        let refresh = Self.randomToken(length: 30)
        accessTokens[access] = SimulatedAccessToken(
            subject: .patient(patientID), expiresAt: now.addingTimeInterval(TimeInterval(tokenLifetime)))
        refreshTokens[refresh] = SimulatedRefreshToken(patientID: patientID, clientID: clientID, accessToken: access)
        return .json(
            200,
            [
                "access_token": access, "expires_in": tokenLifetime, "token_type": "Bearer",
                "scope": "openid email", "refresh_token": refresh, "id_token": "eyJhbGciOiJub25lIn0.eyJzdWIiOiJzaW0ifQ.",
            ])
    }

    /// The OpenID provider document (django-oauth-toolkit's), which the gateway's outage probe
    /// and `doctor` fetch anonymously; the fields a client would read.
    func openIDConfiguration(baseURL: String) -> SimulatorReply {
        .json(
            200,
            [
                "issuer": baseURL + "/o", "authorization_endpoint": baseURL + "/o/authorize/",
                "token_endpoint": baseURL + "/o/token/", "userinfo_endpoint": baseURL + "/o/userinfo/",
                "jwks_uri": baseURL + "/o/.well-known/jwks.json", "response_types_supported": ["code"],
                "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["RS256"],
                "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
            ])
    }
}
