import GatewayTestSupport
import Testing
@testable import Uplink

@Suite("Uplink backoff policy")
struct BackoffPolicyTests {
    @Test("full jitter stays within the capped exponential and never under Retry-After")
    func bounds() {
        let policy = BackoffPolicy(base: .milliseconds(100), cap: .seconds(2), maxAttempts: 5)
        var random = SplitMix64(seed: 42)
        var sawSmall = false
        for attempt in 0..<12 {
            let ceiling = min(Duration.seconds(2), .milliseconds(100) * (1 << attempt))
            for _ in 0..<200 {
                let delay = policy.delay(afterAttempt: attempt, retryAfter: nil, using: &random)
                #expect(delay >= .zero && delay <= ceiling)
                if attempt > 3 && delay < .milliseconds(200) { sawSmall = true }
                #expect(policy.delay(afterAttempt: attempt, retryAfter: .seconds(3), using: &random) >= .seconds(3))
            }
        }
        #expect(sawSmall, "full jitter spreads waits from zero up")
    }

    @Test("Retry-After delta-seconds parse; dates and junk are ignored")
    func retryAfter() {
        #expect(BackoffPolicy.retryAfter("7") == .seconds(7))
        #expect(BackoffPolicy.retryAfter(" 0 ") == .zero)
        #expect(BackoffPolicy.retryAfter("Wed, 21 Oct 2026 07:28:00 GMT") == nil)
        #expect(BackoffPolicy.retryAfter("-1") == nil)
        #expect(BackoffPolicy.retryAfter(nil) == nil)
    }
}
