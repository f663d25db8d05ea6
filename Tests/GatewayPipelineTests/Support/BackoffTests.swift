@testable import GatewayPipeline
import GatewayTestSupport
import Testing

@Suite("Backoff")
struct BackoffTests {
    @Test("each wait lies between half the capped doubling step and the step, and the jitter spreads it")
    func equalJitterBounds() {
        let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(2))
        var random = SplitMix64(seed: 42)
        for attempt in 0 ..< 40 {
            let step = min(Duration.seconds(2), .milliseconds(100) * (1 << min(attempt, 20)))
            var waits: Set<Duration> = []
            for _ in 0 ..< 200 {
                let wait = backoff.delay(attempt: attempt, using: &random)
                #expect(wait >= step / 2 && wait <= step, "attempt \(attempt): \(wait)")
                waits.insert(wait)
            }
            #expect(waits.count > 100, "attempt \(attempt): the waits are spread, not one value")
        }
        #expect(backoff.delay(attempt: -3, using: &random) <= .milliseconds(100), "a negative attempt counts as the first")
    }
}
