import Foundation
import GatewayTestSupport
import JHESimulator
import Testing
@testable import Uplink

/// A store whose next save fails as if the process died between the token reply and the write.
struct CrashingStore: CredentialsPersistence {
    let real: CredentialsFileStore
    func load() throws(UplinkError) -> Credentials? { try real.load() }
    func save(_ credentials: Credentials) throws(UplinkError) {
        throw UplinkError(.credentialsWriteFailed, "simulated crash before the credentials write")
    }
}

/// What happens when the gateway dies after the server rotated the tokens but before the new
/// pair reached the disk: the server has already killed the old pair, so the grant is lost.
/// The operator sees, on the next start, uploads stopping with "re-enrolment required" (exit 1
/// and a RE-ENROLMENT REQUIRED line from `edge-gateway enroll --status`), while samples keep
/// buffering; enrolling again with a new invitation link resumes uploads.
@Suite("Uplink crash between token reply and credentials write")
struct CrashBeforeCredentialsWriteTests {
    @Test("the lost grant turns into a persistent, visible re-enrolment state, never a retry loop")
    func crashLosesGrant() async throws {
        try await SimulatorHarness.with { harness in
            let enrolled = try await harness.enroll()
            harness.advanceGatewayClock(by: 1_209_600)
            let doomed = harness.tokenManager(store: CrashingStore(real: harness.store))
            await #expect(throws: UplinkError.self) { try await doomed.accessToken() }
            #expect(await harness.simulator.counters.refreshes == 1)
            #expect(try harness.stored() == enrolled)

            // "Restart": a new manager reads the old pair from disk.
            let restarted = harness.client(tokens: harness.tokenManager())
            let outcomes = await restarted.deliver(Samples.random(count: 3, seed: 21))
            #expect(outcomes.allSatisfy { if case .retryLater(let reason) = $0 { reason.contains("re-enrolment required") } else { false } })
            #expect(await harness.simulator.counters.refreshes == 1)
            #expect(try harness.stored()?.reenrolmentRequired != nil)

            let status = try await GatewayProcess.run(["enroll", "--status", "--state-dir", harness.stateDirectory.path])
            #expect(status.status == 1)
            #expect(status.standardOutput.contains("RE-ENROLMENT REQUIRED"))
            #expect(!status.standardOutput.contains(enrolled.accessToken))
        }
    }
}
