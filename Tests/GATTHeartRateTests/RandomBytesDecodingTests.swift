import GATTHeartRate
import Testing

@Suite("Random byte strings")
struct RandomBytesDecodingTests {
    @Test("one million random byte strings never trap, and every one that decodes re-encodes to its own bytes")
    func millionRandomStrings() throws {
        let seed: UInt64 = 0x5EED_2A37
        var rng = SplitMix64(seed: seed)
        var decodedCount = 0
        var truncatedCount = 0
        for _ in 0..<1_000_000 {
            let length = Int.random(in: 0...24, using: &rng)
            let frame = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            do {
                let decoded = try HeartRateMeasurement.decode(frame)
                decodedCount += 1
                // Re-encode with the frame's own rate width; compare after normalising what the
                // decoder is allowed to forget: reserved bits, contact 0b01 ≡ 0b00, dropped bytes.
                var expected = Array(frame.dropLast(decoded.ignoredTrailingBytes))
                expected[0] &= 0x1F
                if expected[0] & 0b110 == 0b010 { expected[0] &= ~0b110 }
                let reencoded = decoded.value.encoded(forceUInt16: frame[0] & 0x01 != 0)
                guard reencoded == expected else {
                    Issue.record("seed \(seed): \(frame) decoded to \(decoded) which re-encodes to \(reencoded)")
                    return
                }
            } catch {
                #expect(error.kind == .truncated)
                truncatedCount += 1
            }
        }
        #expect(decodedCount + truncatedCount == 1_000_000)
        #expect(decodedCount > 100_000 && truncatedCount > 10_000, "the random mix exercises both outcomes")
    }
}
