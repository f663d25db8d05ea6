import Foundation
import JHESimulator
import Testing
@testable import Uplink

/// A renewal the server completes but whose answer never arrives: the server has rotated the
/// refresh token, the gateway still holds the old one, and its next renewal gets
/// `invalid_grant`. The grant is lost either way; the operator must be told why and what the
/// server's operator can set so it does not happen again.
@Suite("Uplink renewal cut short")
struct RenewalCutShortTests {
    @Test("invalid_grant right after a renewal whose answer was lost says so and names REFRESH_TOKEN_GRACE_PERIOD_SECONDS; a plain invalid_grant does not")
    func lostAnswerThenInvalidGrant() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let tokens = harness.tokenManager()
            harness.advanceGatewayClock(by: 1_209_600)
            await harness.simulator.dropConnections(next: 1, pathPrefix: "/o/token/")
            await #expect(throws: UplinkError.self) { try await tokens.accessToken() }
            #expect(await harness.simulator.counters.refreshes == 1, "the server did not complete the cut-short renewal")
            do {
                _ = try await tokens.accessToken()
                Issue.record("a rotated refresh token was accepted")
            } catch let error as UplinkError {
                #expect(error.code == .reenrolmentRequired)
                #expect(error.message.contains("got no answer"))
                #expect(error.message.contains("REFRESH_TOKEN_GRACE_PERIOD_SECONDS"))
            }
            #expect(try harness.stored()?.reenrolmentRequired?.contains("REFRESH_TOKEN_GRACE_PERIOD_SECONDS") == true)
        }
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let tokens = harness.tokenManager()
            harness.advanceGatewayClock(by: 1_209_600)
            await harness.simulator.revokeRefreshTokens()
            await #expect { try await tokens.accessToken() } throws: { error in
                guard let error = error as? UplinkError else { return false }
                return error.code == .reenrolmentRequired && !error.message.contains("got no answer")
            }
        }
    }
}
