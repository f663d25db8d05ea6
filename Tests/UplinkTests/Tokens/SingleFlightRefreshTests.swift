import Foundation
import JHESimulator
import Testing
@testable import Uplink

/// Refresh tokens die on first use: concurrent callers must share one refresh.
@Suite("Uplink single-flight token refresh")
struct SingleFlightRefreshTests {
    @Test("16 concurrent callers of an expiring token cause exactly one refresh and all get the new token")
    func proactive() async throws {
        try await SimulatorHarness.with { harness in
            let enrolled = try await harness.enroll()
            let tokens = harness.tokenManager()
            harness.advanceGatewayClock(by: 1_209_600)
            let results = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0 ..< 16 { group.addTask { try await tokens.accessToken() } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(Set(results).count == 1)
            #expect(results[0] != enrolled.accessToken)
            #expect(await harness.simulator.counters.refreshes == 1)
        }
    }

    @Test("8 uploads hitting 401 at once share one refresh and all deliver")
    func after401() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let tokens = harness.tokenManager()
            let client = harness.client(tokens: tokens)
            _ = try await tokens.accessToken()
            await harness.simulator.revokeAccessTokens()
            let outcomes = await withTaskGroup(of: [Outcome].self) { group in
                for index in 0 ..< 8 {
                    group.addTask {
                        await client.deliver(
                            Samples.random(count: 20, seed: 100 + UInt64(index), start: Samples.contractInstant + Int64(index) * 100_000_000_000))
                    }
                }
                return await group.reduce(into: [Outcome]()) { $0 += $1 }
            }
            #expect(outcomes.count == 160)
            #expect(outcomes.allSatisfy { $0 == .delivered || $0 == .skipped(reason: "the strap reported no skin contact") })
            #expect(await harness.simulator.counters.refreshes == 1)
        }
    }
}
