extension Duration {
    /// Whole milliseconds, rounded up so a short deadline never becomes "no deadline" (libcurl
    /// reads 0 as that), and saturating, for libcurl's `long` options.
    var roundedUpMilliseconds: Int {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 1 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return .max }
        let rest = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return max(1, Int(whole) + Int(rest))
    }
}
