/// A small seeded generator, so randomized tests replay exactly from the seed they print.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose whole sequence is fixed by `seed`: print the seed to replay a failure.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits of the SplitMix64 sequence; advances the state.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
