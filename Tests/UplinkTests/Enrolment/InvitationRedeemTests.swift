import Foundation
import JHESimulator
import Testing
@testable import Uplink

/// Enrolment failures against the simulator: each invitation state has its own typed error.
@Suite("Uplink invitation redeem errors")
struct InvitationRedeemTests {
    func enrollError(_ harness: SimulatorHarness, _ link: String) async -> UplinkError.Code? {
        do {
            _ = try await Enrolment(transport: harness.transport, store: harness.store).enroll(invitation: link)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("unknown → 404, reissued → 409, cancelled → 403, older than 7 days → 410; nothing is stored")
    func states() async throws {
        try await SimulatorHarness.with { harness in
            let first = await harness.simulator.issueInvitation()
            let unknown = String(first.dropLast(4)) + "ZZZZ"
            #expect(await enrollError(harness, unknown) == .invitationNotFound)
            let second = await harness.simulator.issueInvitation()
            #expect(await enrollError(harness, first) == .invitationReissued)
            await harness.simulator.cancelInvitation(link: second)
            #expect(await enrollError(harness, second) == .invitationCancelled)
            let third = await harness.simulator.issueInvitation()
            await harness.simulator.advanceClock(by: 8 * 86_400)
            #expect(await enrollError(harness, third) == .invitationExpired)
            let stored = try harness.stored()
            #expect(stored == nil)
        }
    }

    @Test("a link cut short (JHE answers 401, not 404, for a token that is not 32 characters) is reported as such, not as a wrong --base-url")
    func truncatedLink() async throws {
        try await SimulatorHarness.with { harness in
            let link = String(await harness.simulator.issueInvitation().dropLast(5))
            do throws(UplinkError) {
                _ = try await Enrolment(transport: harness.transport, store: harness.store).enroll(invitation: link)
                Issue.record("a truncated link enrolled")
            } catch {
                #expect(error.code == .invitationNotFound)
                #expect(error.message.contains("cut short") && !error.message.contains("--base-url"))
            }
        }
    }

    @Test("re-redeeming within 12 h enrols again; after 12 h it is refused with 409")
    func redeemTwice() async throws {
        try await SimulatorHarness.with { harness in
            let link = await harness.simulator.issueInvitation()
            #expect(await enrollError(harness, link) == nil)
            await harness.simulator.advanceClock(by: 3600)
            #expect(await enrollError(harness, link) == nil)
            await harness.simulator.advanceClock(by: 12 * 3600)
            #expect(await enrollError(harness, link) == .invitationReissued)
        }
    }

    @Test("--device overrides the consents; a patient without heart-rate consent needs --device")
    func deviceChoice() async throws {
        try await SimulatorHarness.with { harness in
            let credentials = try await harness.enroll(deviceID: "70009")
            #expect(credentials.deviceID == "70009")
            let unconsented = await harness.simulator.addPatient(consentedCodes: [])
            let link = await harness.simulator.issueInvitation(patientID: unconsented)
            #expect(await enrollError(harness, link) == .noDevice)
        }
    }
}
