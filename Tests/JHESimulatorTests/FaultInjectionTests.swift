import Foundation
import JHESimulator
import Testing

@Suite("JHESimulator fault injection")
struct FaultInjectionTests {
    @Test("fail the next N requests with a status and Retry-After, then serve normally")
    func failNext() async throws {
        try await withSimulator { simulator, client in
            await simulator.failNext(2, status: 429, retryAfter: 7, pathPrefix: "/api/")
            for _ in 0 ..< 2 {
                let reply = try await client.send("GET", "/api/v1/users/profile")
                #expect(reply.status == 429 && reply.header("Retry-After") == "7")
            }
            #expect(try await client.send("GET", "/api/v1/users/profile").status == 401)
        }
    }

    @Test("a dropped connection fails the client mid-reply; a delayed reply arrives late")
    func dropAndDelay() async throws {
        try await withSimulator { simulator, client in
            await simulator.dropConnections(next: 1, pathPrefix: "/api/")
            await #expect(throws: (any Error).self) { _ = try await client.send("GET", "/api/v1/users/profile") }
            #expect(try await client.send("GET", "/api/v1/users/profile").status == 401)
            await simulator.delayReplies(by: .milliseconds(300))
            let started = ContinuousClock.now
            _ = try await client.send("GET", "/api/v1/users/profile")
            #expect(ContinuousClock.now - started >= .milliseconds(300))
        }
    }

    @Test("revoking refresh tokens and withdrawing consent take effect at once")
    func revokeAndWithdraw() async throws {
        try await withSimulator { simulator, client in
            let (token, refresh) = try await client.enrol(simulator)
            await simulator.revokeRefreshTokens()
            let reply = try await client.form(["grant_type": "refresh_token", "refresh_token": refresh, "client_id": "edge-gateway-simulated-client"])
            #expect(reply.error == "invalid_grant")
            await simulator.setConsent(false)
            let upload = try await client.send(
                "POST", "/FHIR/R5/",
                headers: [
                    ("Authorization", "Bearer " + token), ("Content-Type", "application/json"),
                ], body: BundleFactory.bundle([BundleFactory.observation()]))
            #expect(upload.entryStatuses == [403])
        }
    }
}
