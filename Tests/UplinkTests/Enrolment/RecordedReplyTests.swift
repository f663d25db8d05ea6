import Foundation
import JHESimulator
import Testing
@testable import Uplink

/// The REST decoders against replies recorded from a real JHE (`Fixtures/jhe-replies`), and the
/// stand-in server against the same recordings, so the two cannot agree on a misreading again
/// (they once both read snake_case while the real server speaks camelCase).
@Suite("Uplink decoders on recorded JHE replies")
struct RecordedReplyTests {
    static let directory = SchemaValidator.fixtures.appendingPathComponent("jhe-replies")

    static func recorded(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every key path in a JSON value (`studies[].dataSources[].id`), array elements merged.
    static func keyPaths(_ value: Any, prefix: String = "") -> Set<String> {
        if let object = value as? [String: Any] {
            return object.reduce(into: Set<String>()) { paths, pair in
                let path = prefix.isEmpty ? pair.key : prefix + "." + pair.key
                paths.insert(path)
                paths.formUnion(keyPaths(pair.value, prefix: path))
            }
        }
        if let array = value as? [Any] {
            return array.reduce(into: Set<String>()) { $0.formUnion(keyPaths($1, prefix: prefix + "[]")) }
        }
        return []
    }

    @Test("the recorded consents reply yields heart-rate consent and its one personal_device data source")
    func recordedConsents() throws {
        let consents = try PatientConsents(json: try Self.recorded("consents.json"))
        #expect(consents.hasConsented(to: "omh:heart-rate:2.0"))
        #expect(!consents.hasConsented(to: "omh:rr-interval:1.0"))
        #expect(consents.heartRateDeviceCandidates == ["70007"])
    }

    @Test("a withdrawn consent in the recorded reply leaves no heart-rate consent and no data source")
    func withdrawnConsent() throws {
        var reply = try Self.object(try Self.recorded("consents.json"))
        reply["consolidatedConsentedScopes"] = [] as [Any]
        reply["studies"] = (reply["studies"] as? [[String: Any]] ?? []).map { study in
            var study = study
            study["scopeConsents"] = (study["scopeConsents"] as? [[String: Any]] ?? []).map { $0.merging(["consented": false]) { $1 } }
            return study
        }
        let consents = try PatientConsents(json: try JSONSerialization.data(withJSONObject: reply))
        #expect(!consents.hasConsented(to: "omh:heart-rate:2.0"))
        #expect(consents.heartRateDeviceCandidates.isEmpty)
    }

    @Test("a reply that is not a consents document is refused with uplink.unexpected-reply")
    func notConsents() throws {
        for body in ["<html>502 Bad Gateway</html>", "{\"detail\":\"Not found.\"}", "[]"] {
            #expect(throws: UplinkError.self) { try PatientConsents(json: Data(body.utf8)) }
        }
    }

    @Test("the recorded profile reply yields the patient id")
    func recordedProfile() throws {
        let profile = try JSONDecoder().decode(ProfileReply.self, from: try Self.recorded("profile.json"))
        #expect(profile.patient?.id.text == "40006")
    }

    @Test("the stand-in's profile and consents replies carry every key the real server sends, all camelCase")
    func simulatorSpeaksLikeTheRealServer() async throws {
        try await SimulatorHarness.with { harness in
            let credentials = try await harness.enroll()
            let patient = try #require(credentials.patientID)
            for (path, recording) in [("/api/v1/users/profile", "profile.json"), ("/api/v1/patients/\(patient)/consents", "consents.json")] {
                let reply = try await harness.transport.send(
                    TransportRequest(method: "GET", url: harness.baseURL + path, headers: [("Authorization", "Bearer " + credentials.accessToken)]),
                    timeout: .seconds(30))
                #expect(reply.status == 200)
                let served = Self.keyPaths(try Self.object(reply.body))
                let real = Self.keyPaths(try Self.object(try Self.recorded(recording)))
                #expect(real.subtracting(served).isEmpty, "\(path) lacks \(real.subtracting(served).sorted())")
                #expect(served.filter { $0.contains("_") }.isEmpty, "\(path) has snake_case keys")
            }
        }
    }
}
