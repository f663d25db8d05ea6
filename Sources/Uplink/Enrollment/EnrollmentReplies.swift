/// `POST /api/v1/invitation/<token>` → the grant to exchange within 60 s.
struct InvitationReply: Decodable {
    struct Grant: Decodable {
        let grantType: String?
        let redirectURI: String
        let clientID: String
        let code: String

        private enum CodingKeys: String, CodingKey {
            case grantType = "grant_type"
            case redirectURI = "redirect_uri"
            case clientID = "client_id"
            case code
        }
    }

    let grant: Grant
    let expires: String?
}

/// `GET /api/v1/users/profile`: the user, and for a patient user its patient record.
struct ProfileReply: Decodable {
    struct Patient: Decodable {
        let id: FlexibleID
    }

    let id: FlexibleID?
    let patient: Patient?
}

/// `GET /api/v1/patients/<id>/consents`: studies with their data sources and scope consents.
struct ConsentsReply: Decodable {
    struct Study: Decodable {
        let id: FlexibleID?
        let name: String?
        let dataSources: [DataSource]?
        let scopeConsents: [ScopeConsent]?

        private enum CodingKeys: String, CodingKey {
            case id, name
            case dataSources = "data_sources"
            case scopeConsents = "scope_consents"
        }
    }

    struct DataSource: Decodable {
        let id: FlexibleID
        let name: String?
        let type: String?
    }

    struct ScopeConsent: Decodable {
        struct Code: Decodable {
            let codingSystem: String?
            let codingCode: String?

            private enum CodingKeys: String, CodingKey {
                case codingSystem = "coding_system"
                case codingCode = "coding_code"
            }
        }

        let code: Code?
        let consented: Bool?
    }

    let studies: [Study]?
}

/// An id JHE may send as a number or a string; kept as text.
struct FlexibleID: Decodable, Equatable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            text = String(number)
        } else {
            text = try container.decode(String.self)
        }
    }
}
