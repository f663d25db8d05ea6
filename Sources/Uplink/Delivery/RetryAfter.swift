/// The `Retry-After` header, which 429 and 503 replies may carry.
enum RetryAfter {
    /// The delta-seconds form, at most an hour; nil for an HTTP date (JHE's stack sends none),
    /// a negative number or anything else.
    static func parse(_ header: String?) -> Duration? {
        guard let header, let seconds = Int64(header.filter { !$0.isWhitespace }), seconds >= 0 else { return nil }
        return .seconds(min(seconds, 3600))
    }
}
