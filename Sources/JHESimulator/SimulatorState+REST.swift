import Foundation

/// `/api/v1/users/profile` and `/api/v1/patients/<id>/consents`, in camelCase as JHE's REST API
/// answers (djangorestframework-camel-case; real replies recorded in contract §2a).
extension SimulatorState {
    static let unauthenticated = "Authentication credentials were not provided."

    func profile(_ request: SimulatorRequest) -> SimulatorReply {
        switch subject(of: request.bearerToken) {
        case nil:
            return .detail(401, Self.unauthenticated)
        case .practitionerClient(let clientID):
            return .json(
                200,
                [
                    "id": 90001, "email": "\(clientID)@clients.example.org", "userType": "practitioner", "isSuperuser": false,
                    "patient": NSNull(),
                ])
        case .patient(let id):
            guard let patient = patients[id] else { return .detail(404, "Not found.") }
            return .json(
                200,
                [
                    "id": patient.userID, "userType": "patient", "isSuperuser": false,
                    "patient": [
                        "id": patient.id, "jheUserId": patient.userID, "identifiers": [] as [Any],
                        "organizations": [Self.organisation(patient)],
                    ] as [String: Any],
                ])
        }
    }

    func consents(_ request: SimulatorRequest, patientID: Int) -> SimulatorReply {
        guard let subject = subject(of: request.bearerToken) else { return .detail(401, Self.unauthenticated) }
        guard let patient = patients[patientID] else { return .detail(404, "Not found.") }
        if case .patient(let own) = subject, own != patientID {
            return .detail(403, "You do not have permission to perform this action.")
        }
        let codes = ["omh:heart-rate:2.0", "omh:rr-interval:1.0"]
        let scopes = codes.map { code in
            [
                "code": Self.scope(code), "consented": patient.consentedCodes.contains(code),
                "consentedTime": "2026-11-22T22:16:34.909542Z",
            ] as [String: Any]
        }
        let sources = dataSources.values.sorted { $0.id < $1.id }.map { source in
            ["id": source.id, "name": source.name, "type": source.type, "supportedScopes": codes.map(Self.scope)] as [String: Any]
        }
        let study: [String: Any] = [
            "id": Self.studyID, "name": "Simulated heart-rate study", "description": "A study on the JHE stand-in.",
            "organization": ["id": patient.organisationID, "name": "Simulated clinic", "type": "laboratory"],
            "dataSources": sources, "scopeConsents": scopes,
        ]
        return .json(
            200,
            [
                "patient": ["id": patient.id, "jheUserId": patient.userID, "nameFamily": "Simulated", "nameGiven": "Patient"],
                "consolidatedConsentedScopes": patient.consentedCodes.sorted().map(Self.scope),
                "studiesPendingConsent": [] as [Any],
                "studies": [study],
            ])
    }

    /// A `CodeableConcept` as the REST API shows it (ids as the real server's seed numbers them).
    private static func scope(_ code: String) -> [String: Any] {
        let ids = ["omh:heart-rate:2.0": 50004, "omh:rr-interval:1.0": 50005]
        return ["id": ids[code] ?? 50000, "codingSystem": omhSystem, "codingCode": code, "text": code]
    }

    private static func organisation(_ patient: SimulatedPatient) -> [String: Any] {
        [
            "id": patient.organisationID, "name": "Simulated clinic", "type": "laboratory", "partOf": NSNull(), "currentUserRole": NSNull(),
            "children": [] as [Any],
        ]
    }
}
