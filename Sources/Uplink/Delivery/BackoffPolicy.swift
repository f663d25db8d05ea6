/// Exponential backoff with full jitter (a uniformly random wait between zero and the capped
/// exponential), never shorter than the server's `Retry-After`.
public struct BackoffPolicy: Sendable {
    /// The first ceiling.
    public var base: Duration
    /// The largest ceiling.
    public var cap: Duration
    /// Attempts per batch within one `deliver` call before giving up with `retryLater`.
    public var maxAttempts: Int

    /// A policy; the defaults suit a gateway on a home or clinic network.
    public init(base: Duration = .milliseconds(500), cap: Duration = .seconds(60), maxAttempts: Int = 5) {
        self.base = base
        self.cap = cap
        self.maxAttempts = max(1, maxAttempts)
    }

    /// The wait before attempt `attempt + 1` (`attempt` counts from 0).
    public func delay(afterAttempt attempt: Int, retryAfter: Duration?, using random: inout some RandomNumberGenerator) -> Duration {
        let ceiling = min(cap, base * (1 << min(attempt, 30)))
        let jittered = Duration.nanoseconds(Int64.random(in: 0...max(0, ceiling.nanoseconds), using: &random))
        return max(jittered, retryAfter ?? .zero)
    }

    /// Parses `Retry-After` in its delta-seconds form; HTTP dates are not sent by JHE's stack.
    public static func retryAfter(_ header: String?) -> Duration? {
        guard let header, let seconds = Int64(header.filter { !$0.isWhitespace }), seconds >= 0 else { return nil }
        return .seconds(min(seconds, 3600))
    }
}
