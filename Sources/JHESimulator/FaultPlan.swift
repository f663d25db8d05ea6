/// Faults the simulator is told to inject, consumed request by request.
struct FaultPlan: Sendable {
    /// A canned failure for the next requests on a path prefix.
    struct Failure: Sendable {
        let status: Int
        let retryAfter: Int?
        let pathPrefix: String
        var remaining: Int
    }

    /// What to do to one request.
    enum Action: Sendable {
        case fail(status: Int, retryAfter: Int?)
        case drop
        /// The network is down: the request is not processed and no reply arrives.
        case unreachable
    }

    var failures: [Failure] = []
    var dropsRemaining = 0
    var dropPathPrefix = "/"
    var replyDelay: Duration = .zero
    var truncatedBatchRepliesRemaining = 0
    var offline = false

    /// The fault for a request to `path`, consuming one count.
    mutating func take(for path: String) -> Action? {
        if offline { return .unreachable }
        if let index = failures.firstIndex(where: { path.hasPrefix($0.pathPrefix) && $0.remaining > 0 }) {
            failures[index].remaining -= 1
            let failure = failures[index]
            if failure.remaining == 0 { failures.remove(at: index) }
            return .fail(status: failure.status, retryAfter: failure.retryAfter)
        }
        if dropsRemaining > 0 && path.hasPrefix(dropPathPrefix) {
            dropsRemaining -= 1
            return .drop
        }
        return nil
    }
}
