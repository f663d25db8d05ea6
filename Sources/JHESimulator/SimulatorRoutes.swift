import Foundation

/// Which handler a request goes to. Paths are matched exactly as JHE's Django URLconf does:
/// case-sensitive, with the trailing `/` (the old lowercase `/fhir/r5/` is gone on current JHE).
extension SimulatorState {
    func route(_ request: SimulatorRequest, baseURL: String) -> SimulatorReply {
        let path = request.path
        switch (request.method, path) {
        case ("POST", "/o/token/"):
            return token(request)
        case ("POST", _) where path.hasPrefix("/api/v1/invitation/"):
            let token = path.dropFirst("/api/v1/invitation/".count).split(separator: "/").first.map(String.init) ?? ""
            // JHE's redeem route takes exactly 32 letters and digits; anything else falls through
            // to the authenticated invitation viewset and is answered 401 (contract §10).
            guard token.count == 32, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                return .detail(401, Self.unauthenticated, headers: [("WWW-Authenticate", #"Bearer realm="api""#)])
            }
            return redeemInvitation(token, baseURL: baseURL)
        case ("GET", "/api/v1/users/profile"), ("GET", "/api/v1/users/profile/"), ("GET", "/api/v1/patients/me"):
            return profile(request)
        case ("GET", _) where path.hasPrefix("/api/v1/patients/") && path.hasSuffix("/consents"):
            let id = path.dropFirst("/api/v1/patients/".count).dropLast("/consents".count)
            guard let patientID = Int(id) else { return .detail(404, "Not found.") }
            return consents(request, patientID: patientID)
        case ("GET", "/o/.well-known/openid-configuration"), ("GET", "/o/.well-known/openid-configuration/"):
            return openIDConfiguration(baseURL: baseURL)
        case ("POST", "/FHIR/R5/"):
            return batch(request)
        case ("GET", "/FHIR/R5/Observation"), ("GET", "/FHIR/R5/Observation/"):
            return search(request)
        default:
            return .detail(404, "Not found.")
        }
    }
}
