import GATTHeartRate
import GatewayTestSupport
import Testing

@Suite("Random byte strings")
struct RandomBytesDecodingTests {
    @Test("one million random byte strings never trap, and every one that decodes re-encodes to its own bytes")
    func millionRandomStrings() throws {
        let seed: UInt64 = 0x5EED_2A37
        var rng = SplitMix64(seed: seed)
        var decodedCount = 0
        var truncatedCount = 0
        for _ in 0 ..< 1_000_000 {
            let length = Int.random(in: 0 ... 24, using: &rng)
            let frame = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            do {
                let decoded = try HeartRateMeasurement.decode(frame)
                decodedCount += 1
                if let mismatch = FrameConsistency.mismatch(frame: frame, decoded: decoded) {
                    Issue.record("seed \(seed): \(mismatch)")
                    return
                }
            } catch {
                #expect(error.kind == .truncated)
                truncatedCount += 1
            }
        }
        #expect(decodedCount > 100_000 && truncatedCount > 10_000, "the random mix exercises both outcomes")
    }
}
