/// Upload latencies in fixed buckets (seconds), cumulative as Prometheus expects.
struct LatencyHistogram: Sendable, Equatable {
    /// Upper bounds in seconds; the last bucket (+Inf) is implicit.
    static let bounds: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
    /// Observations at or below each bound.
    private(set) var counts = [Int](repeating: 0, count: bounds.count)
    private(set) var count = 0
    private(set) var sum = 0.0

    mutating func observe(_ duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        count += 1
        sum += seconds
        for (index, bound) in Self.bounds.enumerated() where seconds <= bound { counts[index] += 1 }
    }
}
