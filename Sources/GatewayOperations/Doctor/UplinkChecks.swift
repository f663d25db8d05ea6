#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayConfiguration
import GatewayPipeline
import OutputFormats
import Uplink

/// `doctor`'s JHE checks: the server answers over TCP+TLS+HTTP, the stored access token is
/// accepted, and every bound patient has consented to heart rate.
///
/// The token is only read, never renewed: the daemon owns the rotating refresh token, and a
/// second process refreshing it would kill the grant (the server revokes the old pair at once).
struct UplinkChecks {
    /// The code JHE stores heart rate under; entries for an unconsented code answer 403.
    static let heartRateCode = "omh:heart-rate:2.0"

    let configuration: GatewayConfiguration
    let credentials: Result<Credentials?, UplinkError>
    let bindings: [SensorBinding]
    let now: Date

    /// The checks, in order.
    func run() async -> [DoctorCheck] {
        let enrolled: Credentials?
        switch credentials {
        case .failure(let error):
            return [.fail("jhe", "cannot read the credentials: \(error.message)", fix: "run `edge-gateway enroll` again")]
                + tokenSkipped("no readable credentials")
        case .success(let loaded):
            enrolled = loaded
        }
        let server: ServerAddress
        let transport: CurlTransport
        do throws(UplinkError) {
            guard let target = try target(enrolled) else {
                return [.fail("jhe", "no server: not enrolled and no [uplink] base_url", fix: "run `edge-gateway enroll LINK_OR_CODE`")]
                    + tokenSkipped("not enrolled")
            }
            server = target
            transport = try CurlTransport(caFile: configuration.uplink.caFile, connectTimeout: .seconds(5))
        } catch {
            let fix =
                error.code == .serverMoved
                ? "enrol with the configured server, or remove [uplink] base_url" : "fix [uplink] base_url / ca_file in the configuration, or enrol again"
            return [.fail("jhe", error.message, fix: fix)] + tokenSkipped("no usable server")
        }
        let client = Client(server: server, transport: transport, timeout: min(configuration.uplink.timeout, .seconds(15)))
        var checks = [await reachability(client)]
        if checks[0].passed {
            checks += await tokenAndConsent(client, enrolled)
        } else {
            checks += tokenSkipped("JHE is unreachable")
        }
        return checks
    }

    /// The server to check: the enrolled one, exactly as the daemon uploads to it; before
    /// enrolment, `[uplink] base_url`, reached anonymously (a token never goes to a server that
    /// did not issue it).
    private func target(_ enrolled: Credentials?) throws(UplinkError) -> ServerAddress? {
        if let enrolled { return try configuration.uplink.serverSettings.server(for: enrolled) }
        guard let baseURL = configuration.uplink.baseURL else { return nil }
        return try ServerAddress(baseURL: baseURL)
    }

    private func reachability(_ client: Client) async -> DoctorCheck {
        let started = ContinuousClock.now
        do throws(UplinkError) {
            let reply = try await client.get("/o/.well-known/openid-configuration", token: nil)
            let milliseconds = Int(((ContinuousClock.now - started) / .milliseconds(1)).rounded())
            guard reply.status < 500 else {
                return .fail(
                    "jhe", "\(client.server.host) answered HTTP \(reply.status)", fix: "the server is up but failing: check JHE (or the proxy in front of it)")
            }
            return .pass("jhe", "\(client.server.baseURL) answers (HTTP \(reply.status) in \(milliseconds) ms)")
        } catch {
            return .fail(
                "jhe", "cannot reach \(client.server.baseURL): \(error.message)", fix: "check the network, DNS, the server and TLS trust ([uplink] ca_file)")
        }
    }

    private func tokenAndConsent(_ client: Client, _ enrolled: Credentials?) async -> [DoctorCheck] {
        guard let credentials = enrolled else {
            return tokenSkipped("not enrolled")
        }
        if let reason = credentials.reenrolmentRequired {
            return [
                .fail(
                    "token", "re-enrolment required: \(reason)", fix: "run `edge-gateway enroll` with a new invitation link; samples keep buffering meanwhile")
            ]
                + consentSkipped("re-enrolment is required")
        }
        let expiry = Date(timeIntervalSince1970: TimeInterval(credentials.expiresAt))
        guard expiry > now else {
            return [
                .fail(
                    "token", "expired at \(RFC3339.format(expiry)); the daemon renews it when it runs",
                    fix: "start the daemon: systemctl start edge-gateway")
            ]
                + consentSkipped("the token has expired")
        }
        let tokenCheck: DoctorCheck
        do throws(UplinkError) {
            let reply = try await client.get("/api/v1/users/profile", token: credentials.accessToken)
            switch reply.status {
            case 200:
                tokenCheck = .pass(
                    "token",
                    "accepted by \(client.server.host), expires \(RFC3339.format(expiry)) (in \(AgeText.format(seconds: expiry.timeIntervalSince(now))))")
            case 401:
                tokenCheck = .fail(
                    "token", "rejected by \(client.server.host) (HTTP 401); the daemon renews it when it runs",
                    fix: "start the daemon; if this persists, run `edge-gateway enroll` again")
            default:
                tokenCheck = .fail("token", "\(client.server.host) answered the profile request with HTTP \(reply.status)", fix: "check the server")
            }
        } catch {
            tokenCheck = .fail("token", "could not check: \(error.message)", fix: "check the network and run doctor again")
        }
        guard tokenCheck.passed else { return [tokenCheck] + consentSkipped("the token is not accepted") }
        var checks = [tokenCheck]
        for patient in patients(credentials) {
            checks.append(await consent(client, patient: patient, token: credentials.accessToken))
        }
        return checks
    }

    /// Each bound strap's patient, or the enrolment's patient for straps bound without one.
    private func patients(_ credentials: Credentials) -> [String] {
        let ids = bindings.isEmpty ? [credentials.patientID] : bindings.map { $0.patientID ?? credentials.patientID }
        return Array(Set(ids.compactMap { $0 })).sorted()
    }

    private func consent(_ client: Client, patient: String, token: String) async -> DoctorCheck {
        let name = "consent (patient \(patient))"
        let reply: TransportResponse
        do throws(UplinkError) {
            reply = try await client.get("/api/v1/patients/\(patient)/consents", token: token)
        } catch {
            return .fail(name, "could not check: \(error.message)", fix: "check the network and run doctor again")
        }
        guard reply.status == 200 else {
            return .fail(
                name, "\(client.server.host) answered HTTP \(reply.status) for the patient's consents",
                fix: reply.status == 403 || reply.status == 404 ? "check the patient id bound to the strap (`edge-gateway sensors`)" : "check the server")
        }
        guard let consents = try? PatientConsents(json: reply.body) else {
            return .fail(
                name, "the consents reply from \(client.server.host) could not be read", fix: "check that the enrolled server is a JupyterHealth Exchange")
        }
        guard consents.hasConsented(to: Self.heartRateCode) else {
            return .fail(
                name, "heart rate (\(Self.heartRateCode)) is not consented in any study; uploads are held as dead letters",
                fix: "ask the study team to have the patient consent, then run `edge-gateway queue retry-dead`")
        }
        return .pass(name, "heart rate (\(Self.heartRateCode)) consented")
    }

    private func tokenSkipped(_ reason: String) -> [DoctorCheck] {
        [.fail("token", "not checked: \(reason)", fix: "fix the check above first")] + consentSkipped(reason)
    }

    private func consentSkipped(_ reason: String) -> [DoctorCheck] {
        [.fail("consent", "not checked: \(reason)", fix: "fix the checks above first")]
    }

    /// Authenticated (or anonymous) GETs to one server.
    struct Client {
        let server: ServerAddress
        let transport: CurlTransport
        let timeout: Duration

        func get(_ path: String, token: String?) async throws(UplinkError) -> TransportResponse {
            var headers = [("Accept", "application/json")]
            if let token { headers.append(("Authorization", "Bearer " + token)) }
            return try await transport.send(TransportRequest(method: "GET", url: server.url(path), headers: headers), timeout: timeout)
        }
    }
}
