import Foundation
import GATTHeartRate
import JHESimulator
import Testing
@testable import Uplink

/// Every row of the contract's reply table (§8), provoked on the real simulator over HTTP.
@Suite("Uplink reply table")
struct ReplyTableTests {
    static let poisonBPM: UInt16 = 13

    func samples(_ count: Int, seed: UInt64, poisonAt: Set<Int> = []) -> [HeartRateSample] {
        Samples.random(count: count, seed: seed).enumerated().map { index, sample in
            var sample = sample
            sample.measurement.contact = .detected
            if poisonAt.contains(index) { sample.measurement.bpm = Self.poisonBPM }
            return sample
        }
    }

    func client(_ harness: SimulatorHarness, rewrite: @escaping @Sendable ([String: Any]) -> [String: Any]) -> JHEClient {
        JHEClient(
            tokens: harness.tokenManager(),
            transport: BundleRewritingTransport(base: harness.transport, rewrite: rewrite),
            configuration: DeliveryConfiguration(poisonConfirmationPause: .milliseconds(10)))
    }

    @Test("entry 422 (schema failure) → rejected with the server's diagnostics; the others are stored")
    func schemaFailure() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let client = client(harness) { resource in
                guard BundleRewritingTransport.bpm(resource) == Int(Self.poisonBPM) else { return resource }
                return BundleRewritingTransport.rewritingPayload(resource) { point in
                    var body = point["body"] as? [String: Any] ?? [:]
                    body["heart_rate"] = ["value": 13, "unit": "bpm"]
                    point["body"] = body
                }
            }
            let outcomes = await client.deliver(samples(20, seed: 4, poisonAt: [3, 17]))
            for (index, outcome) in outcomes.enumerated() {
                if [3, 17].contains(index) {
                    guard case .rejected(let reason) = outcome else {
                        Issue.record("entry \(index): \(outcome)")
                        continue
                    }
                    #expect(reason.hasPrefix("422") && reason.contains("beats/min"))
                } else {
                    #expect(outcome == .delivered)
                }
            }
            #expect(await harness.simulator.storedCount() == 18)
        }
    }

    @Test("entry 400 (unknown patient) → rejected; entry 403 (consent withdrawn) → held, delivered once consent is back")
    func badRequestAndConsent() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let client = harness.client(tokens: harness.tokenManager())
            let stranger = Samples.sample(patient: "49999")
            guard case .rejected(let reason) = await client.deliver([stranger])[0] else {
                Issue.record("an unknown patient must be rejected")
                return
            }
            #expect(reason.contains("400") && reason.contains("49999"))

            await harness.simulator.setConsent(false)
            let batch = samples(7, seed: 5)
            for outcome in await client.deliver(batch) {
                guard case .forbidden(let reason) = outcome else {
                    Issue.record("\(outcome)")
                    continue
                }
                #expect(reason.contains("403") && reason.contains("consented"))
            }
            #expect(await harness.simulator.storedCount() == 0)
            await harness.simulator.setConsent(true)
            #expect(await client.deliver(batch) == Array(repeating: .delivered, count: 7))
        }
    }

    @Test("whole-request 400 (an entry without data) → retried, then bisected down to the poison entry")
    func wholeRequest400Bisects() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let client = client(harness) { resource in
                guard BundleRewritingTransport.bpm(resource) == Int(Self.poisonBPM) else { return resource }
                var resource = resource
                resource["valueAttachment"] = ["contentType": "application/json"]
                return resource
            }
            let outcomes = await client.deliver(samples(100, seed: 6, poisonAt: [41]))
            guard case .rejected(let reason) = outcomes[41] else {
                Issue.record("\(outcomes[41])")
                return
            }
            #expect(reason.contains("HTTP 400"))
            #expect(outcomes.enumerated().allSatisfy { $0.offset == 41 || $0.element == .delivered })
            #expect(await harness.simulator.storedCount() == 99)
            // retry once, then halve: log2(100) levels, far fewer requests than one per entry
            let requests = await harness.simulator.counters.batchRequests
            #expect(requests > 7 && requests < 40)
        }
    }

    @Test("whole-request 500 (an Observation without status) → the same isolation")
    func wholeRequest500Bisects() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let client = client(harness) { resource in
                guard BundleRewritingTransport.bpm(resource) == Int(Self.poisonBPM) else { return resource }
                var resource = resource
                resource["status"] = nil
                return resource
            }
            let outcomes = await client.deliver(samples(30, seed: 7, poisonAt: [0, 29]))
            for index in [0, 29] {
                guard case .rejected(let reason) = outcomes[index] else {
                    Issue.record("\(outcomes[index])")
                    continue
                }
                #expect(reason.contains("HTTP 500"))
            }
            #expect(outcomes[1 ..< 29].allSatisfy { $0 == .delivered })
        }
    }

    @Test("429 and 503 with Retry-After → one attempt each, retryLater carrying the server's wait; the next call delivers")
    func retryAfterReported() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let client = harness.client(tokens: harness.tokenManager())
            await harness.simulator.failNext(1, status: 429, retryAfter: 7)
            await harness.simulator.failNext(1, status: 503, retryAfter: 3)
            let batch = samples(5, seed: 8)
            let started = ContinuousClock.now
            for (status, wait) in [(429, 7), (503, 3)] {
                let delivery = await client.delivery(of: batch)
                #expect(delivery.outcomes.allSatisfy { if case .retryLater(let reason) = $0 { reason.contains("\(status)") } else { false } })
                #expect(delivery.retryAfter == .seconds(wait))
                #expect(delivery.serverUnreachable == (status == 503), "a 429 comes from JHE; a 503 may be a proxy's, so the uploader probes")
            }
            #expect(ContinuousClock.now - started < .seconds(3), "the client does not wait itself: the uploader does")
            #expect(await client.deliver(batch) == Array(repeating: .delivered, count: 5))
        }
    }

    @Test("a 502 → retryLater after one attempt, nothing lost, reported as the server unreachable; the next call delivers")
    func gatewayErrorIsOneAttempt() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let client = harness.client(tokens: harness.tokenManager())
            await harness.simulator.failNext(1, status: 502)
            let batch = samples(150, seed: 9)
            let delivery = await client.delivery(of: batch)
            #expect(delivery.outcomes.allSatisfy { if case .retryLater(let reason) = $0 { reason.contains("502") } else { false } })
            #expect(delivery.serverUnreachable)
            #expect(await harness.simulator.counters.batchRequests == 0)
            #expect(await client.deliver(batch) == Array(repeating: .delivered, count: 150))
        }
    }

    @Test("a reply slower than the request timeout → retried; the stored entries come back as duplicates")
    func timeoutThenDuplicates() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let client = harness.client(tokens: harness.tokenManager(), timeout: .milliseconds(300))
            await harness.simulator.delayReplies(by: .seconds(1))
            let batch = samples(10, seed: 10)
            let outcomes = await client.deliver(batch)
            #expect(outcomes.allSatisfy { if case .retryLater(let reason) = $0 { reason.contains("uplink.timed-out") } else { false } })
            await harness.simulator.delayReplies(by: .zero)
            // The late request may or may not have been processed yet: either answer is a success.
            let again = await harness.client(tokens: harness.tokenManager()).deliver(batch)
            #expect(again.allSatisfy { $0 == .delivered || $0 == .duplicate })
            #expect(await harness.simulator.storedCount() == 10)
        }
    }

    @Test("a connection dropped mid-reply → retryLater; the next call's re-post is answered 409 → duplicate")
    func droppedConnection() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let client = harness.client(tokens: harness.tokenManager())
            await harness.simulator.dropConnections(next: 1)
            let batch = samples(12, seed: 11)
            #expect(await client.deliver(batch).allSatisfy { if case .retryLater = $0 { true } else { false } })
            #expect(await client.deliver(batch) == Array(repeating: .duplicate, count: 12))
            #expect(await harness.simulator.storedCount() == 12)
        }
    }

    @Test("a 200 whose entry count differs from the request → nothing acknowledged; the retry is safe")
    func entryCountMismatch() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let client = harness.client(tokens: harness.tokenManager())
            await harness.simulator.truncateBatchReplies(next: 1)
            let batch = samples(6, seed: 12)
            let outcomes = await client.deliver(batch)
            #expect(outcomes.allSatisfy { if case .retryLater(let reason) = $0 { reason.contains("5 entries for 6") } else { false } })
            #expect(await client.deliver(batch) == Array(repeating: .duplicate, count: 6))
        }
    }

    @Test("invalid_grant on refresh → persistent re-enrolment state; uploads stop without contacting the server")
    func reenrolmentRequired() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            await harness.simulator.revokeRefreshTokens()
            await harness.simulator.revokeAccessTokens()
            let client = harness.client(tokens: harness.tokenManager())
            let outcomes = await client.deliver(samples(4, seed: 13))
            #expect(outcomes.allSatisfy { if case .retryLater(let reason) = $0 { reason.contains("re-enrolment required") } else { false } })
            #expect(try harness.stored()?.reenrolmentRequired != nil)
            let requestsBefore = await harness.simulator.counters.tokenRequests
            let fresh = harness.client(tokens: harness.tokenManager())
            #expect(await fresh.deliver(samples(4, seed: 14)).allSatisfy { !$0.isSettled })
            #expect(await harness.simulator.counters.tokenRequests == requestsBefore)
            #expect(await harness.simulator.counters.batchRequests == 0)
            // Enrolling again (as `edge-gateway enroll` does beside a running daemon) resumes the same client.
            try await harness.enroll()
            #expect(await client.deliver(samples(4, seed: 14)) == Array(repeating: .delivered, count: 4))
        }
    }
}
