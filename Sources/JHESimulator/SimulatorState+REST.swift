import Foundation

/// `/api/v1/users/profile` and `/api/v1/patients/<id>/consents`.
extension SimulatorState {
    static let unauthenticated = "Authentication credentials were not provided."

    func profile(_ request: SimulatorRequest) -> SimulatorReply {
        switch subject(of: request.bearerToken) {
        case nil:
            return .detail(401, Self.unauthenticated)
        case .practitionerClient(let clientID):
            return .json(200, ["id": 90001, "email": "\(clientID)@clients.example.org", "user_type": "practitioner", "patient": NSNull()])
        case .patient(let id):
            guard let patient = patients[id] else { return .detail(404, "Not found.") }
            return .json(200, [
                "id": patient.userID, "email": patient.email, "user_type": "patient",
                "patient": ["id": patient.id, "name_family": "Simulated", "name_given": "Patient", "organization_ids": [patient.organisationID]],
            ])
        }
    }

    func consents(_ request: SimulatorRequest, patientID: Int) -> SimulatorReply {
        guard let subject = subject(of: request.bearerToken) else { return .detail(401, Self.unauthenticated) }
        guard let patient = patients[patientID] else { return .detail(404, "Not found.") }
        if case .patient(let own) = subject, own != patientID {
            return .detail(403, "You do not have permission to perform this action.")
        }
        let scopes = ["omh:heart-rate:2.0", "omh:rr-interval:1.0"].map { code in
            ["code": ["coding_system": Self.omhSystem, "coding_code": code, "text": code], "consented": patient.consentedCodes.contains(code)]
        }
        let sources = dataSources.values.sorted { $0.id < $1.id }.map { ["id": $0.id, "name": $0.name, "type": $0.type] as [String: Any] }
        let study: [String: Any] = [
            "id": Self.studyID, "name": "Simulated heart-rate study",
            "organization": ["id": patient.organisationID, "name": "Simulated clinic"],
            "data_sources": sources, "scope_consents": scopes,
        ]
        return .json(200, [
            "patient": ["id": patient.id],
            "consolidated_consented_scopes": patient.consentedCodes.sorted().map { ["coding_system": Self.omhSystem, "coding_code": $0] },
            "studies_pending_consent": [] as [Any],
            "studies": [study],
        ])
    }
}
