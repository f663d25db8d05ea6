import Foundation

/// `POST /FHIR/R5/` (batch upload) and `GET /FHIR/R5/Observation` (contract §3, §6).
extension SimulatorState {
    /// As a real JHE answers a batch with a revoked or expired token (contract §10).
    static let bearerChallenge = ("WWW-Authenticate", #"Bearer realm="api",error="invalid_token",error_description="The access token is invalid.""#)

    func batch(_ request: SimulatorRequest) -> SimulatorReply {
        if (request.headers["accept"] ?? "").contains("application/fhir+json") {
            return .detail(406, "Could not satisfy the request Accept header.")
        }
        guard let subject = subject(of: request.bearerToken) else {
            return .detail(401, Self.unauthenticated, headers: [Self.bearerChallenge])
        }
        let contentType = request.headers["content-type"] ?? ""
        guard contentType.hasPrefix("application/json") else {
            return .detail(415, "Unsupported media type \"\(contentType)\" in request.")
        }
        guard let bundle = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] else {
            return .detail(400, "JSON parse error")
        }
        counters.batchRequests += 1
        guard let entries = bundle["entry"] as? [[String: Any]] else {
            return Self.serverError("KeyError: 'entry'")
        }
        for entry in entries {
            guard entry["request"] is [String: Any] else { return Self.serverError("KeyError: 'request'") }
            if let resource = entry["resource"] as? [String: Any], resource["resourceType"] as? String == "Observation",
                resource["status"] == nil
            {
                return Self.serverError("pydantic ValidationError: Observation.status field required")
            }
        }
        let missingData = entries.indices.filter { index in
            let attachment = (entries[index]["resource"] as? [String: Any])?["valueAttachment"] as? [String: Any]
            return !(attachment?["data"] is String)
        }
        if !missingData.isEmpty {
            return .json(400, missingData.map { "Entry \($0): valueAttachment.data must not be null" })
        }
        var replies: [[String: Any]] = []
        for entry in entries {
            let request = entry["request"] as? [String: Any]
            let resource = entry["resource"] as? [String: Any] ?? [:]
            if request?["method"] as? String != "POST" || resource["resourceType"] as? String != "Observation" {
                // JHE's bug, kept on purpose: the entry is refused and then processed anyway.
                replies.append(Self.entryFailure(400, "Only POST of Observation resources is supported."))
            }
            let reply = store(resource, subject: subject)
            let status = ((reply["response"] as? [String: Any])?["status"] as? String) ?? ""
            if status.hasPrefix("409") { counters.duplicates += 1 } else if !status.hasPrefix("201") { counters.refusedEntries += 1 }
            replies.append(reply)
        }
        if faults.truncatedBatchRepliesRemaining > 0 && !replies.isEmpty {
            faults.truncatedBatchRepliesRemaining -= 1
            replies.removeLast()
        }
        return .json(200, ["resourceType": "Bundle", "type": "batch-response", "entry": replies])
    }

    /// The per-entry checks, in JHE's order.
    private func store(_ resource: [String: Any], subject: TokenSubject) -> [String: Any] {
        let subjectReference = (resource["subject"] as? [String: Any])?["reference"] as? String ?? ""
        guard subjectReference.hasPrefix("Patient/"), let patientID = Int(subjectReference.dropFirst(8)),
            let patient = patients[patientID]
        else { return Self.entryFailure(400, "Patient id=\(subjectReference.dropFirst(8)) can not be found.") }
        switch subject {
        case .patient(let own) where own != patientID:
            return Self.entryFailure(403, "The Subject Patient does not match the current user.")
        case .practitionerClient where patient.organisationID != Self.organisationID:
            return Self.entryFailure(403, "The Subject Patient is not in an organization of the current user.")
        default: break
        }
        let deviceReference = (resource["device"] as? [String: Any])?["reference"] as? String ?? ""
        guard deviceReference.hasPrefix("Device/"), let deviceID = Int(deviceReference.dropFirst(7)),
            let source = dataSources[deviceID], ["personal_device", "device"].contains(source.type)
        else { return Self.entryFailure(400, "Device Data Source id=\(deviceReference.dropFirst(7)) can not be found.") }
        let pairs = (resource["identifier"] as? [[String: Any]] ?? []).compactMap { identifier -> (system: String, value: String)? in
            guard let system = identifier["system"] as? String, let value = identifier["value"] as? String else { return nil }
            return (system, value)
        }
        let keys = pairs.map { $0.system + "|" + $0.value }
        if let duplicate = pairs.first(where: { identifiers.contains($0.system + "|" + $0.value) }) {
            return Self.entryFailure(409, "Identifier already exists: system=\(duplicate.system) value=\(duplicate.value)")
        }
        let codings = ((resource["code"] as? [String: Any])?["coding"] as? [[String: Any]]) ?? []
        guard codings.count == 1, let system = codings[0]["system"] as? String, let code = codings[0]["code"] as? String,
            system == Self.omhSystem, Self.knownCodes.contains(code)
        else { return Self.entryFailure(400, "Code not found") }
        guard patient.consentedCodes.contains(code) else {
            return Self.entryFailure(
                403, "Observation data with coding_system=\(system) coding_code=\(code) has not been consented for any studies by this Patient.")
        }
        let data = ((resource["valueAttachment"] as? [String: Any])?["data"] as? String) ?? ""
        guard let raw = Data(base64Encoded: data), raw.allSatisfy({ $0 < 0x80 }),
            let point = try? JSONSerialization.jsonObject(with: raw)
        else { return Self.entryFailure(400, "valueAttachment.data is not base64 of ASCII JSON") }
        let problems = OMHSchemaCheck.problems(in: point, code: code)
        guard problems.isEmpty else { return Self.entryFailure(422, "{'omh_data': \(problems)}") }
        identifiers.formUnion(keys)
        let id = nextObservationID
        nextObservationID += 1
        counters.created += 1
        observations.append(
            StoredObservation(
                id: id, patientID: patientID, code: code, system: system,
                effectiveDateTime: resource["effectiveDateTime"] as? String, payload: raw))
        return ["resource": ["resourceType": "Resource", "id": String(id)], "response": ["status": "201 Created"]]
    }

    static func entryFailure(_ status: Int, _ diagnostics: String) -> [String: Any] {
        let phrase = [400: "Bad Request", 403: "Forbidden", 409: "Conflict", 422: "Unprocessable Entity"][status] ?? ""
        return [
            "response": [
                "status": "\(status) \(phrase)",
                "outcome": ["resourceType": "OperationOutcome", "issue": [["severity": "error", "code": "processing", "diagnostics": diagnostics]]],
            ]
        ]
    }

    static func serverError(_ text: String) -> SimulatorReply {
        SimulatorReply(
            status: 500, headers: [("Content-Type", "text/html")], body: Data("<html><body><h1>Server Error (500)</h1><pre>\(text)</pre></body></html>".utf8))
    }

    /// `GET /FHIR/R5/Observation?code=system|code&_count=N&_page=P&_summary=count&patient=ID`.
    func search(_ request: SimulatorRequest) -> SimulatorReply {
        guard let subject = subject(of: request.bearerToken) else {
            return .json(401, ["resourceType": "OperationOutcome", "issue": [["severity": "error", "code": "login", "diagnostics": "Invalid token."]]])
        }
        var matches = observations.filter { observation in
            switch subject {
            case .patient(let own): observation.patientID == own
            case .practitionerClient: patients[observation.patientID]?.organisationID == Self.organisationID
            }
        }
        if let code = request.query["code"] {
            matches = matches.filter { code == $0.system + "|" + $0.code || code == $0.code }
        }
        if let patient = request.query["patient"].flatMap(Int.init) {
            matches = matches.filter { $0.patientID == patient }
        }
        if request.query["_summary"] == "count" {
            return .json(200, ["resourceType": "Bundle", "type": "searchset", "total": matches.count])
        }
        let count = min(max(Int(request.query["_count"] ?? "") ?? 20, 1), 1000)
        let page = max(Int(request.query["_page"] ?? "") ?? 1, 1)
        let newestFirst = matches.reversed().dropFirst((page - 1) * count).prefix(count)
        let entries: [[String: Any]] = newestFirst.map { observation in
            let reserialised =
                (try? JSONSerialization.jsonObject(with: observation.payload))
                .flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) } ?? observation.payload
            var resource: [String: Any] = [
                "resourceType": "Observation", "id": String(observation.id), "status": "final",
                "code": ["coding": [["system": observation.system, "code": observation.code]]],
                "subject": ["reference": "Patient/\(observation.patientID)"],
                "valueAttachment": ["contentType": "application/json", "data": reserialised.base64EncodedString()],
            ]
            resource["effectiveDateTime"] = observation.effectiveDateTime
            return ["resource": resource]
        }
        return .json(200, ["resourceType": "Bundle", "type": "searchset", "total": matches.count, "entry": entries])
    }
}
