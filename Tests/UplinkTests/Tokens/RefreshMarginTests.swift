import Foundation
import JHESimulator
import Testing
@testable import Uplink

/// How early a token is renewed: five minutes before expiry for long-lived tokens, a fifth of
/// the lifetime for short ones, so a server with 30-second tokens does not see a refresh before
/// every upload; and a hostile `expires_in` cannot trap the daemon.
@Suite("Uplink token refresh margin")
struct RefreshMarginTests {
    @Test("30-second tokens are renewed in their last 6 seconds, not on every use")
    func shortLivedTokens() async throws {
        try await SimulatorHarness.with(tokenLifetime: 30) { harness in
            let enrolled = try await harness.enroll()
            #expect(enrolled.tokenLifetime == 30)
            let tokens = harness.tokenManager()
            for _ in 0 ..< 5 { #expect(try await tokens.accessToken() == enrolled.accessToken) }
            harness.advanceGatewayClock(by: 23)
            #expect(try await tokens.accessToken() == enrolled.accessToken)
            harness.advanceGatewayClock(by: 2)
            let renewed = try await tokens.accessToken()
            #expect(renewed != enrolled.accessToken)
            #expect(await tokens.renewalCount == 1)
            #expect(try await tokens.accessToken() == renewed)
            #expect(await tokens.renewalCount == 1)
        }
    }

    @Test("two-week tokens are renewed five minutes before they expire")
    func longLivedTokens() async throws {
        try await SimulatorHarness.with { harness in
            let enrolled = try await harness.enroll()
            let tokens = harness.tokenManager()
            harness.advanceGatewayClock(by: 1_209_600 - 301)
            #expect(try await tokens.accessToken() == enrolled.accessToken)
            harness.advanceGatewayClock(by: 2)
            #expect(try await tokens.accessToken() != enrolled.accessToken)
        }
    }

    @Test("expires_in of Int64.max, zero or negative neither traps nor makes a token look valid for ever")
    func hostileLifetimes() throws {
        for (value, lifetime) in [(Int64.max, Int64(365 * 24 * 3600)), (0, 1), (-5, 1)] {
            let reply = try JSONDecoder().decode(TokenResponse.self, from: Data(#"{"access_token":"A","expires_in":\#(value)}"#.utf8))
            #expect(reply.lifetime == lifetime)
            #expect(reply.expiresAt(receivedAt: .max) == .max)
            #expect(reply.expiresAt(receivedAt: 1_800_000_000) == 1_800_000_000 + lifetime)
        }
    }
}
