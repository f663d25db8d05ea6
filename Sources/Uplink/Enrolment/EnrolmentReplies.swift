#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
///
/// JHE's REST API (`/api/v1/…`) answers in camelCase (djangorestframework-camel-case), unlike
/// its OAuth and FHIR endpoints; contract §2a records a real reply. Only the fields the gateway
/// reads are decoded; everything else is ignored, and every field is optional so that a server
/// that leaves one out still yields the rest.
package struct PatientConsents: Decodable, Sendable {
    struct Study: Decodable {
        let id: FlexibleID?
        let name: String?
        let dataSources: [DataSource]?
        let scopeConsents: [ScopeConsent]?
    }

    struct DataSource: Decodable {
        let id: FlexibleID
        let name: String?
        let type: String?
    }

    struct Scope: Decodable {
        let codingSystem: String?
        let codingCode: String?
    }

    struct ScopeConsent: Decodable {
        let code: Scope?
        let consented: Bool?
    }

    let studies: [Study]?
    let consolidatedConsentedScopes: [Scope]?

    /// Reads a consents reply, or says it is not one (`uplink.unexpected-reply`).
    package init(json body: Data) throws(UplinkError) {
        do {
            self = try JSONDecoder().decode(PatientConsents.self, from: body)
        } catch {
            throw UplinkError(.unexpectedReply, "the consents reply is not a JHE consents document (\(BatchReply.snippet(body)))")
        }
        guard studies != nil || consolidatedConsentedScopes != nil else {
            throw UplinkError(.unexpectedReply, "the consents reply has neither studies nor consolidatedConsentedScopes (\(BatchReply.snippet(body)))")
        }
    }

    /// Whether the patient consented to `code` (e.g. `omh:heart-rate:2.0`) in some study, or in
    /// the consolidated list JHE derives from the studies.
    package func hasConsented(to code: String) -> Bool {
        (consolidatedConsentedScopes ?? []).contains { $0.codingCode == code }
            || (studies ?? []).contains { $0.consents(to: code) }
    }

    /// The data sources a gateway may upload heart rate as: of type `personal_device` or
    /// `device`, in studies where heart rate is consented, each id once, in reply order.
    package var heartRateDeviceCandidates: [String] {
        var seen: [String] = []
        for study in studies ?? [] where study.consents(to: OMHSchemaID.heartRate.code) {
            for source in study.dataSources ?? [] where ["personal_device", "device"].contains(source.type ?? "") {
                if !seen.contains(source.id.text) { seen.append(source.id.text) }
            }
        }
        return seen
    }
}

extension PatientConsents.Study {
    func consents(to code: String) -> Bool {
        (scopeConsents ?? []).contains { $0.consented == true && $0.code?.codingCode == code }
    }
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
