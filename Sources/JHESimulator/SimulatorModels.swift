import Foundation

/// A patient on the simulated server.
struct SimulatedPatient: Sendable {
    let id: Int
    let userID: Int
    let email: String
    let organisationID: Int
    /// Consented scope codes (e.g. `omh:heart-rate:2.0`).
    var consentedCodes: Set<String>
}

/// An invitation link's server-side record.
struct SimulatedInvitation: Sendable {
    enum State: Sendable { case active, cancelled, reissued }
    let patientID: Int
    let issuedAt: Date
    var redeemedAt: Date?
    var state: State
}

/// An authorization code handed out by an invitation redeem, valid 60 s, single use.
struct SimulatedAuthorizationCode: Sendable {
    let patientID: Int
    let clientID: String
    let redirectURI: String
    /// base64url(SHA-256(code_verifier)) as the invitation committed to it.
    let challenge: String
    let issuedAt: Date
}

/// Who a token speaks for.
enum TokenSubject: Sendable, Equatable {
    case patient(Int)
    case practitionerClient(String)
}

/// An issued access token.
struct SimulatedAccessToken: Sendable {
    let subject: TokenSubject
    let expiresAt: Date
    var revoked = false
}

/// A live refresh token and the access token issued with it (revoked together on rotation).
struct SimulatedRefreshToken: Sendable {
    let patientID: Int
    let clientID: String
    let accessToken: String
}

/// A stored Observation.
struct StoredObservation: Sendable {
    let id: Int
    let patientID: Int
    let code: String
    let system: String
    let effectiveDateTime: String?
    /// The decoded OMH data point (header + body) as JSON text.
    let payload: Data
}

/// A data source (`Device/<id>`).
struct SimulatedDataSource: Sendable {
    let id: Int
    let name: String
    let type: String
}
