import Foundation
import JHESimulator
import Testing

/// Contract §2 on the simulator: PKCE, code expiry, rotation, client credentials.
@Suite("JHESimulator OAuth contract")
struct OAuthContractTests {
    @Test("PKCE: no verifier → 400 invalid_request; wrong verifier → 400 invalid_grant; right one → tokens")
    func pkce() async throws {
        try await withSimulator { simulator, client in
            let link = await simulator.issueInvitation()
            let (redeemed, grant) = try await client.redeem(link)
            #expect(redeemed.status == 200 && (redeemed.json["token_endpoint"] as? String)?.hasSuffix("/o/token/") == true)
            let base = ["grant_type": "authorization_code", "code": grant["code"]!, "client_id": grant["client_id"]!, "redirect_uri": grant["redirect_uri"]!]
            let missing = try await client.form(base)
            #expect(missing.status == 400 && missing.error == "invalid_request")
            var wrong = base
            wrong["code_verifier"] = "not-the-verifier"
            let refused = try await client.form(wrong)
            #expect(refused.status == 400 && refused.error == "invalid_grant")
            let (_, again) = try await client.redeem(link)
            var right = base
            right["code"] = again["code"]!
            right["code_verifier"] = RawClient.verifier(forLink: link)
            let tokens = try await client.form(right)
            #expect(tokens.status == 200)
            #expect(tokens.json["expires_in"] as? Int == 1_209_600)
            #expect(tokens.json["token_type"] as? String == "Bearer" && tokens.json["refresh_token"] is String)
        }
    }

    @Test("an authorization code older than 60 s is refused with invalid_grant")
    func codeExpiry() async throws {
        try await withSimulator { simulator, client in
            let link = await simulator.issueInvitation()
            let (_, grant) = try await client.redeem(link)
            await simulator.advanceClock(by: 61)
            let reply = try await client.form([
                "grant_type": "authorization_code", "code": grant["code"]!, "client_id": grant["client_id"]!,
                "redirect_uri": grant["redirect_uri"]!, "code_verifier": RawClient.verifier(forLink: link),
            ])
            #expect(reply.status == 400 && reply.error == "invalid_grant")
        }
    }

    @Test("refresh rotates: the old access token is 401 at once and the old refresh token invalid_grant")
    func rotation() async throws {
        try await withSimulator { simulator, client in
            let (access, refresh) = try await client.enrol(simulator)
            let clientID = "edge-gateway-simulated-client"
            let noClient = try await client.form(["grant_type": "refresh_token", "refresh_token": refresh])
            #expect(noClient.status == 401 && noClient.error == "invalid_client")
            let rotated = try await client.form(["grant_type": "refresh_token", "refresh_token": refresh, "client_id": clientID])
            #expect(rotated.status == 200)
            let oldAccess = try await client.send("GET", "/api/v1/users/profile", headers: [("Authorization", "Bearer " + access)])
            #expect(oldAccess.status == 401)
            let newAccess = try await client.send(
                "GET", "/api/v1/users/profile", headers: [("Authorization", "Bearer " + (rotated.json["access_token"] as! String))])
            #expect(newAccess.status == 200)
            #expect((newAccess.json["patient"] as? [String: Any])?["id"] as? Int == JHESimulator.defaultPatientID)
            let reuse = try await client.form(["grant_type": "refresh_token", "refresh_token": refresh, "client_id": clientID])
            #expect(reuse.status == 400 && reuse.error == "invalid_grant")
            // Refresh still works after the access token expired.
            await simulator.advanceClock(by: 3 * 1_209_600)
            let late = try await client.form(["grant_type": "refresh_token", "refresh_token": rotated.json["refresh_token"] as! String, "client_id": clientID])
            #expect(late.status == 200)
        }
    }

    @Test("client credentials: Basic key → token without refresh token; a bad key → 401; JSON body → unsupported_grant_type")
    func clientCredentials() async throws {
        try await withSimulator { simulator, client in
            let key = await simulator.createPractitionerClient()
            let reply = try await client.form(["grant_type": "client_credentials"], headers: [("Authorization", "Basic " + key)])
            #expect(reply.status == 200 && reply.json["access_token"] is String && reply.json["refresh_token"] == nil)
            let bad = try await client.form(["grant_type": "client_credentials"], headers: [("Authorization", "Basic eDp5")])
            #expect(bad.status == 401)
            let json = try await client.send(
                "POST", "/o/token/", headers: [("Content-Type", "application/json")], body: Data(#"{"grant_type":"client_credentials"}"#.utf8))
            #expect(json.status == 400 && json.error == "unsupported_grant_type")
        }
    }
}
