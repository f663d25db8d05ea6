import Foundation

/// What tests, the benchmark and `edge-gateway-lab jhe-simulator` do to the simulated server.
extension JHESimulator {
    /// The seeded patient (40001).
    package static let defaultPatientID = 40001
    /// The seeded heart-rate data source (`Device/70001`, `personal_device`).
    package static let defaultDeviceID = 70001

    /// Issues an invitation for `patientID` (reissuing any older one, which then answers 409)
    /// and returns the link a patient would get: `<base>/invite?code=<quote(host_token)>`.
    package func issueInvitation(patientID: Int = JHESimulator.defaultPatientID) async -> String {
        let token = await state.issueInvitation(patientID: patientID)
        let base = await baseURL
        let host = String(base.split(separator: "://", maxSplits: 1).last ?? "")
        let code = (host + "_" + token).addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
        return base + "/invite?code=" + code
    }

    /// Cancels an invitation (redeeming it then answers 403).
    package func cancelInvitation(link: String) async {
        guard let token = Self.token(inLink: link) else { return }
        await state.cancelInvitation(token)
    }

    /// Adds a patient in the simulated organisation (or another one) with the given consents.
    package func addPatient(consentedCodes: Set<String> = ["omh:heart-rate:2.0", "omh:rr-interval:1.0"], otherOrganisation: Bool = false) async -> Int {
        await state.addPatient(consentedCodes: consentedCodes, organisationID: otherOrganisation ? 29999 : SimulatorState.organisationID)
    }

    /// Creates a practitioner API client and returns its key, `base64(client_id:secret)`.
    package func createPractitionerClient() async -> String {
        await state.createPractitionerClient()
    }

    /// Fails the next `count` requests whose path starts with `pathPrefix` with `status`.
    package func failNext(_ count: Int, status: Int, retryAfter: Int? = nil, pathPrefix: String = "/FHIR/R5/") async {
        await state.updateFaults { $0.failures.append(.init(status: status, retryAfter: retryAfter, pathPrefix: pathPrefix, remaining: count)) }
    }

    /// Delays every reply by `delay` (`.zero` to stop).
    package func delayReplies(by delay: Duration) async {
        await state.updateFaults { $0.replyDelay = delay }
    }

    /// Drops the connection half-way through the next `count` replies on `pathPrefix`
    /// (the request has been processed: what it stored stays stored).
    package func dropConnections(next count: Int, pathPrefix: String = "/FHIR/R5/") async {
        await state.updateFaults {
            $0.dropsRemaining = count
            $0.dropPathPrefix = pathPrefix
        }
    }

    /// Cuts (or restores) the network: while cut, no request is processed and every connection
    /// closes without a complete reply, as when the gateway's uplink is down.
    package func setReachable(_ reachable: Bool) async {
        await state.updateFaults { $0.offline = !reachable }
    }

    /// Leaves the last entry out of the next `count` batch replies (an entry-count mismatch).
    package func truncateBatchReplies(next count: Int) async {
        await state.updateFaults { $0.truncatedBatchRepliesRemaining = count }
    }

    /// Kills every refresh token of a patient (the next refresh answers `invalid_grant`).
    package func revokeRefreshTokens(patientID: Int = JHESimulator.defaultPatientID) async {
        await state.revokeRefreshTokens(patientID: patientID)
    }

    /// Revokes every access token of a patient (the next request answers 401).
    package func revokeAccessTokens(patientID: Int = JHESimulator.defaultPatientID) async {
        await state.revokeAccessTokens(patientID: patientID)
    }

    /// Withdraws (or grants again) a patient's consent for a code: entries answer 403 without it.
    package func setConsent(_ consented: Bool, code: String = "omh:heart-rate:2.0", patientID: Int = JHESimulator.defaultPatientID) async {
        await state.setConsent(patientID: patientID, code: code, consented: consented)
    }

    /// Moves the server's clock forward (expire codes, tokens, invitations).
    package func advanceClock(by seconds: TimeInterval) async {
        await state.advanceClock(by: seconds)
    }

    /// Request and token counters.
    package var counters: SimulatorCounters {
        get async { await state.counters }
    }

    /// How many Observations are stored, per code.
    package func storedCount(code: String = "omh:heart-rate:2.0") async -> Int {
        await state.observations.filter { $0.code == code }.count
    }

    /// The OMH data points stored for a code, oldest first, reduced to what callers compare
    /// with what a gateway accepted: the header's uuid and the effective time.
    package func storedDataPoints(code: String = "omh:heart-rate:2.0") async -> [StoredDataPoint] {
        await state.observations.filter { $0.code == code }.map { StoredDataPoint(payload: $0.payload) }
    }

    static func token(inLink link: String) -> String? {
        let code = link.components(separatedBy: "code=").last?.removingPercentEncoding ?? link
        return code.split(separator: "_").last.map(String.init)
    }
}

extension SimulatorState {
    /// Seeds patient 40001 (consenting heart rate and RR) on first start.
    func addPatientIfNone() -> Int {
        if let first = patients.keys.min() { return first }
        return addPatient(consentedCodes: ["omh:heart-rate:2.0", "omh:rr-interval:1.0"], organisationID: Self.organisationID)
    }
}
