import GATTHeartRate

/// Heart Rate Measurement decoding throughput on a realistic mix of frames.
///
/// The mix follows what straps send at 1 Hz: mostly uint8 rates with one or two RR intervals
/// (Polar H7/H10 style), some with contact bits, a few with energy expended or a 16-bit rate,
/// an occasional full 9-interval frame and an occasional stray trailing byte.
enum DecodeBenchmark {
    static let mix: [(weight: Int, frame: [UInt8])] = [
        (30, [0x10, 0x4E, 0xD2, 0x02, 0xC8, 0x02]),
        (20, [0x10, 0x51, 0x00, 0x03, 0x12, 0x03]),
        (15, [0x16, 0x34, 0xE4, 0x04]),
        (15, [0x10, 0x3B, 0x53, 0x04]),
        (5, [0x10, 0x3E, 0xB1, 0x03, 0xDE]),
        (5, [0x06, 0x48]),
        (4, [0x19, 0x2C, 0x01, 0x10, 0x27, 0x00, 0x04]),
        (3, [0x16, 0x60] + Array(repeating: [0x80, 0x02], count: 9).flatMap { $0 }),
        (3, [0x04, 0x00]),
    ]

    static func run() {
        let frames = mix.flatMap { Array(repeating: $0.frame, count: $0.weight) }
        let rounds = 100_000
        var checksum = 0
        // Warm-up, then the measured run.
        for frame in frames { checksum &+= decodeOne(frame) }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0 ..< rounds {
                for frame in frames { checksum &+= decodeOne(frame) }
            }
        }
        let count = Double(rounds * frames.count)
        let seconds = elapsed.seconds
        print("decode: \(Int(count)) frames (mix of \(mix.count) shapes) in \(format(seconds, 3)) s")
        print(
            "decode: \(format(count / seconds / 1e6, 2)) M frames/s, \(format(seconds / count * 1e9, 1)) ns/frame, peak RSS \(format(EdgeGatewayBench.peakRSSMiB, 1)) MiB (checksum \(checksum))"
        )
    }

    @inline(never)
    static func decodeOne(_ frame: [UInt8]) -> Int {
        guard let decoded = try? HeartRateMeasurement.decode(frame) else { return -1 }
        return Int(decoded.value.bpm) &+ decoded.value.rrIntervals.count &+ decoded.ignoredTrailingBytes
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0 ..< decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return "\(rounded)"
    }
}
