import Foundation
import Testing
@testable import Uplink

/// Tokens, keys and verifiers never reach an error message, an outcome reason or a description.
@Suite("Uplink secret hygiene")
struct SecretHygieneTests {
    @Test("no secret appears in errors, outcome reasons or the credentials description")
    func noSecretsInText() async throws {
        try await SimulatorHarness.with { harness in
            let link = await harness.simulator.issueInvitation()
            let invitation = try InvitationCode(parsing: link)
            let credentials = try await harness.enroll()
            var texts = [credentials.description, String(describing: credentials)]

            await harness.simulator.revokeRefreshTokens()
            await harness.simulator.revokeAccessTokens()
            let tokens = harness.tokenManager()
            do { _ = try await tokens.tokenAfterUnauthorized(credentials.accessToken) } catch { texts.append("\(error)") }
            for outcome in await harness.client(tokens: tokens).deliver(Samples.random(count: 2, seed: 5)) {
                texts.append(String(describing: outcome))
            }
            do {
                _ = try await Enrolment(transport: harness.transport, store: harness.store).enroll(invitation: link + "x")
            } catch { texts.append("\(error)") }
            do {
                _ = try await Enrolment(transport: harness.transport, store: harness.store)
                    .enroll(clientCredentials: "c2VjcmV0OnNlY3JldA==", baseURL: harness.baseURL, deviceID: nil)
            } catch { texts.append("\(error)") }

            let secrets = [credentials.accessToken, credentials.refreshToken ?? "", invitation.token, invitation.codeVerifier, "c2VjcmV0OnNlY3JldA=="]
            #expect(texts.count >= 6)
            for text in texts {
                for secret in secrets where !secret.isEmpty {
                    #expect(!text.contains(secret), "secret leaked into: \(text.prefix(120))")
                }
            }
        }
    }
}
