extension Duration {
    /// The duration in (fractional) seconds, for figures, histograms and jitter arithmetic.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
