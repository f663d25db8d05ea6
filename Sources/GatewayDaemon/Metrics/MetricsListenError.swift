/// The metrics server could not listen where `[metrics] listen` says.
struct MetricsListenError: Error, Sendable, CustomStringConvertible {
    /// Stable code for scripts: always `metrics.listen-failed`.
    let code = "metrics.listen-failed"
    /// What failed, on which address, and what to do.
    let message: String

    var description: String { "\(message) [\(code)]" }
}
