import Foundation
import JHESimulator
import Uplink

/// Plain HTTP against the simulator, to check its contract without the uplink in between.
struct RawClient {
    let baseURL: String

    struct Reply {
        let status: Int
        let headers: [(String, String)]
        let body: Data

        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
        var error: String? { json["error"] as? String }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        /// Per-entry status codes of a batch-response.
        var entryStatuses: [Int] {
            (json["entry"] as? [[String: Any]] ?? []).map {
                Int((($0["response"] as? [String: Any])?["status"] as? String ?? "").prefix(3)) ?? 0
            }
        }
    }

    func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: Data? = nil) async throws -> Reply {
        let request = TransportRequest(method: method, url: baseURL + path, headers: headers, body: body.map(Array.init))
        let response = try await CurlTransport().send(request, timeout: .seconds(30))
        return Reply(status: response.status, headers: response.headers, body: response.body)
    }

    func form(_ fields: [String: String], headers: [(String, String)] = []) async throws -> Reply {
        let body = fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        return try await send("POST", "/o/token/", headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers, body: Data(body.utf8))
    }

    /// Redeems a link and returns the grant fields.
    func redeem(_ link: String) async throws -> (Reply, [String: String]) {
        let token = String(link.split(separator: "_").last ?? "")
        let reply = try await send("POST", "/api/v1/invitation/" + token)
        return (reply, (reply.json["grant"] as? [String: String]) ?? [:])
    }

    static func verifier(forLink link: String) -> String {
        let token = String(link.split(separator: "_").last ?? "")
        return Data(token.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A full patient enrolment; returns (access, refresh).
    func enrol(_ simulator: JHESimulator) async throws -> (String, String) {
        let link = await simulator.issueInvitation()
        let (_, grant) = try await redeem(link)
        let reply = try await form([
            "grant_type": "authorization_code", "code": grant["code"] ?? "", "client_id": grant["client_id"] ?? "",
            "redirect_uri": grant["redirect_uri"] ?? "", "code_verifier": Self.verifier(forLink: link),
        ])
        return (reply.json["access_token"] as? String ?? "", reply.json["refresh_token"] as? String ?? "")
    }
}

/// Runs `body` against a started simulator and stops it afterwards.
func withSimulator(_ body: (JHESimulator, RawClient) async throws -> Void) async throws {
    let simulator = JHESimulator()
    let base = try await simulator.start()
    do {
        try await body(simulator, RawClient(baseURL: base))
    } catch {
        await simulator.stop()
        throw error
    }
    await simulator.stop()
}
