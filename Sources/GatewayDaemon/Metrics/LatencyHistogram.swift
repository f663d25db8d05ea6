/// Upload round latencies in fixed buckets, as a Prometheus histogram needs them: a count per
/// upper bound, a running sum and a total count. A value, so the daemon can hand a copy to the
/// metrics endpoint without sharing mutable state.
struct LatencyHistogram: Sendable, Equatable {
    /// Upper bounds in seconds: a JHE batch of 100 entries takes about 1.2 s, and the server's
    /// worker timeout is 30 s, so the buckets resolve both ends.
    static let bounds: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    /// Observations per bucket (not cumulative); the last entry counts those above every bound.
    private(set) var bucketCounts = [Int](repeating: 0, count: LatencyHistogram.bounds.count + 1)
    /// The sum of every observed latency, in seconds.
    private(set) var sum: Double = 0
    /// How many latencies were observed.
    private(set) var count = 0

    /// Adds one latency in seconds (negative or NaN values are counted as zero).
    mutating func observe(_ seconds: Double) {
        let value = seconds.isNaN || seconds < 0 ? 0 : seconds
        let index = Self.bounds.firstIndex { value <= $0 } ?? Self.bounds.count
        bucketCounts[index] += 1
        sum += value
        count += 1
    }

    /// `(upper bound, observations ≤ bound)` for every bound and then `+Inf`, as exposed.
    var cumulativeBuckets: [(upperBound: Double, count: Int)] {
        var running = 0
        return zip(Self.bounds + [.infinity], bucketCounts).map { bound, bucket in
            running += bucket
            return (bound, running)
        }
    }
}
