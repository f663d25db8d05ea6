#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Gets a gateway its credentials (contract §2): a patient invitation redeemed and exchanged
/// with PKCE, or a practitioner's client-credentials key; then finds the patient and the data
/// source, and stores everything with `CredentialsPersistence` before returning.
package struct Enrolment: Sendable {
    private let transport: any HTTPTransport
    private let store: any CredentialsPersistence
    private let timeout: Duration
    private let now: @Sendable () -> Int64

    /// An enrolment that talks through `transport` and saves into `store`.
    package init(
        transport: any HTTPTransport, store: any CredentialsPersistence, timeout: Duration = .seconds(30),
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.transport = transport
        self.store = store
        self.timeout = timeout
        self.now = now
    }

    /// Enrols with a patient invitation link or code. `baseURL` overrides the link's host;
    /// `deviceID` overrides the data source found in the patient's consents; `fhirBasePath` is
    /// `/fhir/r5/` for JHE v0.0.11 and older.
    package func enroll(
        invitation: String, baseURL: String? = nil, deviceID: String? = nil, fhirBasePath: String = "/FHIR/R5/"
    ) async throws(UplinkError) -> Credentials {
        let invitation = try InvitationCode(parsing: invitation)
        let server = try ServerAddress(baseURL: baseURL ?? invitation.impliedBaseURL, fhirBasePath: fhirBasePath)
        let grant = try await redeem(invitation, at: server)
        let endpoint = TokenEndpoint(server: server, transport: transport, timeout: timeout)
        let token: TokenResponse
        do {
            token = try await endpoint.exchange(
                code: grant.code, clientID: grant.clientID, redirectURI: grant.redirectURI, verifier: invitation.codeVerifier)
        } catch {
            throw error.uplinkError(
                invalidGrant: UplinkError(
                    .tokenRequestFailed,
                    "\(server.host) refused the invitation's authorization code (invalid_grant): it expired (60 s) or the PKCE verifier did not match; redeem the link again"
                ))
        }
        guard let refreshToken = token.refreshToken else {
            throw UplinkError(.unexpectedReply, "\(server.host) issued no refresh token for the invitation; this server does not follow the JHE contract")
        }
        let patientID = try await patientID(at: server, token: token.accessToken)
        var device = deviceID
        if device == nil { device = try await findDevice(at: server, token: token.accessToken, patientID: patientID) }
        let credentials = Credentials(
            kind: .patient, server: server, clientID: grant.clientID, accessToken: token.accessToken,
            refreshToken: refreshToken, clientKey: nil, expiresAt: token.expiresAt(receivedAt: now()), tokenLifetime: token.lifetime,
            patientID: patientID, deviceID: device)
        try store.save(credentials)
        return credentials
    }

    /// Enrols a clinic gateway with a practitioner API client key (`base64(client_id:secret)`).
    package func enroll(
        clientCredentials key: String, baseURL: String, deviceID: String?, fhirBasePath: String = "/FHIR/R5/"
    ) async throws(UplinkError) -> Credentials {
        let server = try ServerAddress(baseURL: baseURL, fhirBasePath: fhirBasePath)
        let endpoint = TokenEndpoint(server: server, transport: transport, timeout: timeout)
        let token: TokenResponse
        do {
            token = try await endpoint.clientCredentials(key: key)
        } catch {
            throw error.uplinkError(
                invalidGrant: UplinkError(
                    .invalidClientKey, "\(server.host) refused the client-credentials key (invalid_grant); ask the practitioner for a new key"))
        }
        let credentials = Credentials(
            kind: .clientCredentials, server: server, clientID: nil, accessToken: token.accessToken,
            refreshToken: nil, clientKey: key, expiresAt: token.expiresAt(receivedAt: now()), tokenLifetime: token.lifetime,
            patientID: nil, deviceID: deviceID)
        try store.save(credentials)
        return credentials
    }

    private func redeem(_ invitation: InvitationCode, at server: ServerAddress) async throws(UplinkError) -> InvitationReply.Grant {
        let reply = try await transport.send(
            TransportRequest(
                method: "POST", url: server.url("/api/v1/invitation/" + invitation.token),
                headers: [("Accept", "application/json")]),
            timeout: timeout)
        switch reply.status {
        case 200:
            guard let decoded = try? JSONDecoder().decode(InvitationReply.self, from: reply.body) else {
                throw UplinkError(.unexpectedReply, "\(server.host) answered the invitation with a body that is not a JHE grant")
            }
            return decoded.grant
        case 404:
            throw UplinkError(
                .invitationNotFound, "\(server.host) does not know this invitation (404): it was mistyped or already used; ask the study team for a new link")
        case 409:
            throw UplinkError(
                .invitationReissued, "this invitation was reissued or redeemed more than 12 hours ago (409); use the newest link from the study team")
        case 410:
            throw UplinkError(.invitationExpired, "this invitation has expired (410, links live 7 days); ask the study team for a new link")
        case 403:
            throw UplinkError(.invitationCancelled, "this invitation was cancelled (403); ask the study team for a new link")
        case 401 where invitation.token.count != 32:
            throw UplinkError(
                .invitationNotFound,
                "\(server.host) does not know this invitation (HTTP 401 for a token of \(invitation.token.count) characters; JHE's are 32): the link was probably cut short or mistyped; copy the whole link again"
            )
        default:
            throw UplinkError(.unexpectedReply, "\(server.host) answered the invitation with HTTP \(reply.status); check --base-url (the API host)")
        }
    }

    private func patientID(at server: ServerAddress, token: String) async throws(UplinkError) -> String {
        let reply = try await authorizedGet(server.url("/api/v1/users/profile"), token: token)
        guard reply.status == 200, let profile = try? JSONDecoder().decode(ProfileReply.self, from: reply.body) else {
            throw UplinkError(.profileUnavailable, "could not read the user profile from \(server.host) (HTTP \(reply.status))")
        }
        guard let patient = profile.patient else {
            throw UplinkError(
                .profileUnavailable, "the invitation's user on \(server.host) is not a patient; invitations are for patients, clinics use --client-credentials")
        }
        return patient.id.text
    }

    private func findDevice(at server: ServerAddress, token: String, patientID: String) async throws(UplinkError) -> String {
        let reply = try await authorizedGet(server.url("/api/v1/patients/\(patientID)/consents"), token: token)
        guard reply.status == 200, let consents = try? PatientConsents(json: reply.body) else {
            throw UplinkError(.noDevice, "could not read patient \(patientID)'s consents from \(server.host) (HTTP \(reply.status)); pass --device ID")
        }
        let devices = consents.heartRateDeviceCandidates
        switch devices.count {
        case 1: return devices[0]
        case 0:
            throw UplinkError(
                .noDevice,
                "patient \(patientID) has no consented study with a personal_device data source for heart rate; pass --device ID or ask the study team to set the study up"
            )
        default:
            throw UplinkError(
                .ambiguousDevice, "patient \(patientID)'s studies offer several data sources (\(devices.joined(separator: ", "))); pick one with --device ID")
        }
    }

    private func authorizedGet(_ url: String, token: String) async throws(UplinkError) -> TransportResponse {
        try await transport.send(
            TransportRequest(method: "GET", url: url, headers: [("Authorization", "Bearer " + token), ("Accept", "application/json")]),
            timeout: timeout)
    }
}
