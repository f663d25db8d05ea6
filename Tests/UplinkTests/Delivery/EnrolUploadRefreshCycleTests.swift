import Foundation
import JHESimulator
import Testing
@testable import Uplink

/// The whole life of a home gateway against the simulator over real loopback HTTP.
@Suite("Uplink enrolment, upload and refresh cycle")
struct EnrolUploadRefreshCycleTests {
    @Test("enrol by link → upload → proactive refresh → upload → refresh on 401 → upload")
    func fullCycle() async throws {
        try await SimulatorHarness.with { harness in
            let enrolled = try await harness.enroll()
            #expect(enrolled.patientID == String(JHESimulator.defaultPatientID))
            #expect(enrolled.deviceID == String(JHESimulator.defaultDeviceID))
            #expect(enrolled.kind == .patient)
            let attributes = try FileManager.default.attributesOfItem(atPath: harness.store.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            let tokens = harness.tokenManager()
            let client = harness.client(tokens: tokens)
            let first = Samples.random(count: 250, seed: 1)
            let firstOutcomes = await client.deliver(first)
            #expect(firstOutcomes == Array(repeating: .delivered, count: 250))
            #expect(await harness.simulator.storedCount() == 250)
            #expect(await harness.simulator.counters.batchRequests == 3)

            // Two weeks later: the token is about to expire, the client renews before using it.
            harness.advanceGatewayClock(by: 1_209_600)
            let second = Samples.random(count: 40, seed: 2, start: Samples.contractInstant + 1_000_000_000_000)
            #expect(await client.deliver(second) == Array(repeating: .delivered, count: 40))
            #expect(await harness.simulator.counters.refreshes == 1)
            let renewed = try #require(try harness.stored())
            #expect(renewed.accessToken != enrolled.accessToken)
            #expect(renewed.refreshToken != enrolled.refreshToken)

            // The server revokes the token: a 401 triggers one refresh and the batch goes through.
            await harness.simulator.revokeAccessTokens()
            let third = Samples.random(count: 10, seed: 3, start: Samples.contractInstant + 2_000_000_000_000)
            #expect(await client.deliver(third) == Array(repeating: .delivered, count: 10))
            #expect(await harness.simulator.counters.refreshes == 2)
            #expect(await harness.simulator.storedCount() == 300)

            // Re-sending what is stored is answered 409 and counted as duplicates.
            #expect(await client.deliver(third) == Array(repeating: .duplicate, count: 10))
        }
    }

    @Test("a clinic gateway enrols with client credentials and renews with the same key, no refresh token")
    func clientCredentials() async throws {
        try await SimulatorHarness.with { harness in
            let key = await harness.simulator.createPractitionerClient()
            let credentials = try await Enrolment(transport: harness.transport, store: harness.store, now: harness.now)
                .enroll(clientCredentials: key, baseURL: harness.baseURL, deviceID: "70001")
            #expect(credentials.kind == .clientCredentials && credentials.refreshToken == nil)
            let tokens = harness.tokenManager()
            let client = harness.client(tokens: tokens)
            let patient = String(JHESimulator.defaultPatientID)
            let samples = (0 ..< 5).map { Samples.sample(at: Samples.contractInstant + Int64($0) * 1_000_000_000, patient: patient) }
            #expect(await client.deliver(samples) == Array(repeating: .delivered, count: 5))
            harness.advanceGatewayClock(by: 2_000_000)
            let later = (0 ..< 3).map { Samples.sample(at: Samples.contractInstant + Int64($0) * 1_000_000_000, patient: patient) }
            #expect(await client.deliver(later) == Array(repeating: .delivered, count: 3))
            #expect(await tokens.renewalCount == 1)
            #expect(await harness.simulator.counters.refreshes == 0)
            let unbound = Samples.sample()
            guard case .forbidden = await client.deliver([unbound])[0] else {
                Issue.record("a sample bound to no patient must be held on a clinic gateway")
                return
            }
        }
    }

    @Test("windowed mode with RR intervals delivers average/minimum/maximum per window plus each RR interval")
    func windowedWithRR() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let client = JHEClient(
                tokens: harness.tokenManager(), transport: harness.transport,
                configuration: DeliveryConfiguration(
                    encoding: EncodingOptions(resolution: .window(seconds: 60), includeRRIntervals: true)))
            let start: Int64 = 1_795_334_400_000_000_000
            let samples = (0 ..< 120).map { Samples.sample(bpm: UInt16(60 + $0 % 20), rr: [800, 820], at: start + Int64($0) * 1_000_000_000) }
            #expect(await client.deliver(samples) == Array(repeating: .delivered, count: 120))
            #expect(await harness.simulator.storedCount() == 6)
            #expect(await harness.simulator.storedCount(code: "omh:rr-interval:1.0") == 240)
            #expect(await client.deliver(samples) == Array(repeating: .duplicate, count: 120))
        }
    }
}
