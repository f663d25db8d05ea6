import Foundation

/// Everything the simulated JHE knows, behind one actor: organisation, patients, consents, data
/// sources, OAuth clients, invitations, codes, tokens, stored Observations, and the fault plan.
actor SimulatorState {
    static let omhSystem = "https://w3id.org/openmhealth"
    /// Codes a stock JHE server is seeded with.
    static let knownCodes: Set<String> = [
        "omh:blood-glucose:4.0", "omh:blood-pressure:4.0", "omh:body-temperature:4.0",
        "omh:heart-rate:2.0", "omh:oxygen-saturation:2.0", "omh:respiratory-rate:2.0",
        "omh:rr-interval:1.0", "omh:body-weight:3.0", "omh:physical-activity:1.2", "omh:step-count:3.0",
    ]
    static let organisationID = 20001
    static let studyID = 30001
    static let publicClientID = "edge-gateway-simulated-client"
    static let redirectURI = "http://127.0.0.1/auth/callback"

    let tokenLifetime: Int
    var clockOffset: TimeInterval = 0
    var patients: [Int: SimulatedPatient] = [:]
    var dataSources: [Int: SimulatedDataSource] = [:]
    var practitionerClients: [String: String] = [:]
    var invitations: [String: SimulatedInvitation] = [:]
    var codes: [String: SimulatedAuthorizationCode] = [:]
    var accessTokens: [String: SimulatedAccessToken] = [:]
    var refreshTokens: [String: SimulatedRefreshToken] = [:]
    var observations: [StoredObservation] = []
    var identifiers: Set<String> = []
    var faults = FaultPlan()
    var nextObservationID = 60001
    var nextPatientID = 40001
    var counters = SimulatorCounters()

    init(tokenLifetime: Int) {
        self.tokenLifetime = tokenLifetime
        dataSources[70001] = SimulatedDataSource(id: 70001, name: "Heart-rate strap (BLE)", type: "personal_device")
        dataSources[70002] = SimulatedDataSource(id: 70002, name: "Study app", type: "app")
    }

    /// The server's clock (wall clock plus any offset a test applied).
    var now: Date { Date().addingTimeInterval(clockOffset) }

    func advanceClock(by seconds: TimeInterval) { clockOffset += seconds }

    func addPatient(consentedCodes: Set<String>, organisationID: Int) -> Int {
        let id = nextPatientID
        nextPatientID += 1
        patients[id] = SimulatedPatient(
            id: id, userID: id - 30000, email: "patient\(id)@example.org",
            organisationID: organisationID, consentedCodes: consentedCodes)
        return id
    }

    func setConsent(patientID: Int, code: String, consented: Bool) {
        if consented {
            patients[patientID]?.consentedCodes.insert(code)
        } else {
            patients[patientID]?.consentedCodes.remove(code)
        }
    }

    func issueInvitation(patientID: Int) -> String {
        for (token, invitation) in invitations where invitation.patientID == patientID && invitation.state == .active {
            invitations[token]?.state = .reissued
        }
        let token = Self.randomToken(length: 32)
        invitations[token] = SimulatedInvitation(patientID: patientID, issuedAt: now, redeemedAt: nil, state: .active)
        return token
    }

    func cancelInvitation(_ token: String) { invitations[token]?.state = .cancelled }

    func createPractitionerClient() -> String {
        let clientID = Self.randomToken(length: 20)
        let secret = Self.randomToken(length: 40)
        practitionerClients[clientID] = secret
        return Data("\(clientID):\(secret)".utf8).base64EncodedString()
    }

    func revokeRefreshTokens(patientID: Int) {
        refreshTokens = refreshTokens.filter { $0.value.patientID != patientID }
    }

    func revokeAccessTokens(patientID: Int) {
        for (token, record) in accessTokens where record.subject == .patient(patientID) {
            accessTokens[token]?.revoked = true
        }
    }

    /// Counts an arriving request and picks its fault, if any.
    func takeFault(for path: String) -> (FaultPlan.Action?, Duration) {
        counters.requests += 1
        return (faults.take(for: path), faults.replyDelay)
    }

    func updateFaults(_ change: @Sendable (inout FaultPlan) -> Void) { change(&faults) }

    /// The subject of a valid (known, unrevoked, unexpired) access token.
    func subject(of token: String?) -> TokenSubject? {
        guard let token, let record = accessTokens[token], !record.revoked, record.expiresAt > now else { return nil }
        return record.subject
    }

    static func randomToken(length: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0 ..< length).map { _ in alphabet[Int.random(in: 0 ..< alphabet.count, using: &generator)] })
    }
}

/// What the simulator has seen, for tests and the benchmark.
package struct SimulatorCounters: Sendable, Equatable {
    /// Every request that arrived, whatever its path or fate.
    package var requests = 0
    /// `grant_type=refresh_token` requests that rotated a token.
    package var refreshes = 0
    /// All `/o/token/` requests.
    package var tokenRequests = 0
    /// `POST /FHIR/R5/` requests that reached the batch handler.
    package var batchRequests = 0
    /// Entries stored (201).
    package var created = 0
    /// Entries answered 409: already stored, sent again (after a lost reply or a crash).
    package var duplicates = 0
    /// Entries refused with another status (400, 403, 422).
    package var refusedEntries = 0
}
