import GATTHeartRate
import Glibc

/// A plausible, reproducible heart-rate signal: a resting rate that drifts slowly, with beat
/// to beat variability, turned into 1 Hz measurements carrying the RR intervals of the beats
/// that fell in each second, as real straps report them.
package struct HeartRateSignal: Sendable {
    private var random: SplitMix
    private let restingBPM: Double
    private var elapsed: Double = 0
    private var nextBeat: Double = 0
    private var drift: Double = 0

    /// A signal around `restingBPM`, reproducible from `seed`.
    package init(seed: UInt64 = 1, restingBPM: Double = 68) {
        random = SplitMix(state: seed)
        self.restingBPM = restingBPM
    }

    /// The measurement covering the next `seconds` of signal.
    package mutating func next(seconds: Double = 1) -> HeartRateMeasurement {
        let end = elapsed + seconds
        var intervals: [UInt16] = []
        drift = max(-12, min(25, drift + (random.unit() - 0.5) * 1.5))
        let slowWave = 6 * sin(2 * Double.pi * elapsed / 300)
        let bpm = restingBPM + drift + slowWave
        while nextBeat < end {
            let variability = 1 + (random.unit() - 0.5) * 0.08
            let interval = 60 / bpm * variability
            nextBeat += interval
            intervals.append(UInt16((interval * 1024).rounded()))
        }
        elapsed = end
        let reported = UInt16(bpm.rounded())
        return HeartRateMeasurement(bpm: reported, contact: .detected, rrIntervals: Array(intervals.suffix(9)))
    }
}

/// SplitMix64, the generator behind `HeartRateSignal`'s reproducibility.
private struct SplitMix: Sendable {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1).
    mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
