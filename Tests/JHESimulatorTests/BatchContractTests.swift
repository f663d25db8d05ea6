import Foundation
import JHESimulator
import Testing

/// Contract §1, §3 and §6 on the simulator: per-entry checks in order, whole-request failures,
/// media types, de-duplication, reading back.
@Suite("JHESimulator batch upload contract")
struct BatchContractTests {
    func post(_ client: RawClient, _ token: String, _ body: Data, contentType: String = "application/json") async throws -> RawClient.Reply {
        try await client.send(
            "POST", "/FHIR/R5/",
            headers: [
                ("Authorization", "Bearer " + token), ("Content-Type", contentType), ("Accept", "application/json"),
            ], body: body)
    }

    @Test("per-entry checks in order: patient 400/403, device 400, identifier 409, coding 400, consent 403, data 400, schema 422")
    func perEntryChecks() async throws {
        try await withSimulator { simulator, client in
            let (token, _) = try await client.enrol(simulator)
            let other = await simulator.addPatient()
            let repeated = UUID().uuidString.lowercased()
            var twoCodings = BundleFactory.observation()
            twoCodings["code"] = [
                "coding": [["system": "https://w3id.org/openmhealth", "code": "omh:heart-rate:2.0"], ["system": "http://loinc.org", "code": "8867-4"]]
            ]
            var notASCII = BundleFactory.observation()
            notASCII["valueAttachment"] = ["contentType": "application/json", "data": Data(#"{"header":{"uuid":"é"}}"#.utf8).base64EncodedString()]
            let resources: [[String: Any]] = [
                BundleFactory.observation(identifier: repeated),  // 201
                BundleFactory.observation(patient: 49999),  // 400 unknown patient
                BundleFactory.observation(patient: other),  // 403 not the token's patient
                BundleFactory.observation(device: 70002),  // 400 data source of type app
                BundleFactory.observation(identifier: repeated),  // 409 repeat within the batch
                twoCodings,  // 400 two codings
                BundleFactory.observation(code: "omh:heart-rate:1.0"),  // 400 code not found
                BundleFactory.observation(code: "omh:blood-glucose:4.0"),  // 403 not consented
                notASCII,  // 400 not ASCII
                BundleFactory.observation(payload: BundleFactory.payload(unit: "bpm")),  // 422
                BundleFactory.observation(payload: BundleFactory.payload(value: "72")),  // 422
                BundleFactory.observation(identifier: nil),  // 201 (no de-dup without identifier)
            ]
            let reply = try await post(client, token, BundleFactory.bundle(resources))
            #expect(reply.status == 200)
            #expect(reply.json["type"] as? String == "batch-response")
            #expect(reply.entryStatuses == [201, 400, 403, 400, 409, 400, 400, 403, 400, 422, 422, 201])
            let again = try await post(client, token, BundleFactory.bundle([BundleFactory.observation(identifier: repeated)]))
            #expect(again.entryStatuses == [409])
            #expect(await simulator.storedCount() == 2)
        }
    }

    @Test("whole-request failures: missing data → 400 list, missing status/entry/request → 500, stale token → 401 with WWW-Authenticate")
    func wholeRequest() async throws {
        try await withSimulator { simulator, client in
            let (token, _) = try await client.enrol(simulator)
            var noData = BundleFactory.observation()
            noData["valueAttachment"] = ["contentType": "application/json"]
            let list = try await post(client, token, BundleFactory.bundle([BundleFactory.observation(), noData]))
            #expect(list.status == 400 && (try? JSONSerialization.jsonObject(with: list.body)) is [Any])
            var noStatus = BundleFactory.observation()
            noStatus["status"] = nil
            #expect(try await post(client, token, BundleFactory.bundle([noStatus])).status == 500)
            #expect(try await post(client, token, Data(#"{"resourceType":"Bundle","type":"batch"}"#.utf8)).status == 500)
            let noRequest = try JSONSerialization.data(withJSONObject: ["resourceType": "Bundle", "entry": [["resource": BundleFactory.observation()]]])
            #expect(try await post(client, token, noRequest).status == 500)
            #expect(await simulator.storedCount() == 0)
            let stale = try await post(client, "nope", BundleFactory.bundle([BundleFactory.observation()]))
            #expect(stale.status == 401 && stale.header("WWW-Authenticate")?.contains("invalid_token") == true)
        }
    }

    @Test("application/fhir+json → 415, Accept fhir+json → 406, lowercase /fhir/r5/ → 404")
    func mediaTypesAndPath() async throws {
        try await withSimulator { simulator, client in
            let (token, _) = try await client.enrol(simulator)
            let body = BundleFactory.bundle([BundleFactory.observation()])
            #expect(try await post(client, token, body, contentType: "application/fhir+json").status == 415)
            let accept = try await client.send(
                "POST", "/FHIR/R5/",
                headers: [
                    ("Authorization", "Bearer " + token), ("Content-Type", "application/json"), ("Accept", "application/fhir+json"),
                ], body: body)
            #expect(accept.status == 406)
            let lower = try await client.send(
                "POST", "/fhir/r5/", headers: [("Authorization", "Bearer " + token), ("Content-Type", "application/json")], body: body)
            #expect(lower.status == 404)
        }
    }

    @Test("a non-POST entry gets a 400 and is processed anyway: more reply entries than request entries")
    func extraEntryBug() async throws {
        try await withSimulator { simulator, client in
            let (token, _) = try await client.enrol(simulator)
            let body = try JSONSerialization.data(withJSONObject: [
                "resourceType": "Bundle", "type": "batch",
                "entry": [
                    ["resource": BundleFactory.observation(), "request": ["method": "PUT", "url": "Observation/1"]]
                ],
            ])
            #expect(try await post(client, token, body).entryStatuses == [400, 201])
        }
    }

    @Test("reading back: code filter, _count pages newest first, _summary=count, OperationOutcome on 401")
    func search() async throws {
        try await withSimulator { simulator, client in
            let (token, _) = try await client.enrol(simulator)
            let uuids = (0 ..< 25).map { _ in UUID().uuidString.lowercased() }
            _ = try await post(client, token, BundleFactory.bundle(uuids.map { BundleFactory.observation(payload: BundleFactory.payload(uuid: $0)) }))
            let auth = [("Authorization", "Bearer " + token)]
            let code = "https://w3id.org/openmhealth%7Comh:heart-rate:2.0"
            let count = try await client.send("GET", "/FHIR/R5/Observation?code=\(code)&_summary=count", headers: auth)
            #expect(count.json["total"] as? Int == 25)
            let page = try await client.send("GET", "/FHIR/R5/Observation?code=\(code)", headers: auth)
            let entries = page.json["entry"] as? [[String: Any]] ?? []
            #expect(entries.count == 20)
            let newest = (entries.first?["resource"] as? [String: Any])?["valueAttachment"] as? [String: Any]
            let decoded =
                (newest?["data"] as? String).flatMap { Data(base64Encoded: $0) }.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]
            #expect((decoded?["header"] as? [String: Any])?["uuid"] as? String == uuids.last)
            let all = try await client.send("GET", "/FHIR/R5/Observation?code=\(code)&_count=1000", headers: auth)
            #expect((all.json["entry"] as? [Any])?.count == 25)
            let rr = try await client.send("GET", "/FHIR/R5/Observation?code=https://w3id.org/openmhealth%7Comh:rr-interval:1.0&_summary=count", headers: auth)
            #expect(rr.json["total"] as? Int == 0)
            let unauthorized = try await client.send("GET", "/FHIR/R5/Observation", headers: [("Authorization", "Bearer x")])
            #expect(unauthorized.status == 401 && unauthorized.json["resourceType"] as? String == "OperationOutcome")
            #expect(unauthorized.header("WWW-Authenticate") == nil)
        }
    }

    @Test("a practitioner client may post for its organisation's patients, not for others (403)")
    func practitionerScope() async throws {
        try await withSimulator { simulator, client in
            let key = await simulator.createPractitionerClient()
            let token =
                try await client.form(["grant_type": "client_credentials"], headers: [("Authorization", "Basic " + key)]).json["access_token"] as! String
            let outsider = await simulator.addPatient(otherOrganisation: true)
            let reply = try await post(client, token, BundleFactory.bundle([BundleFactory.observation(), BundleFactory.observation(patient: outsider)]))
            #expect(reply.entryStatuses == [201, 403])
        }
    }
}
