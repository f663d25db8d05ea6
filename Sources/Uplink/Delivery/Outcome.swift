/// What became of one sample handed to `JHEClient.deliver`, and so what the queue does with it
/// (contract §8).
package enum Outcome: Sendable, Equatable {
    /// Stored (entry 201): delete it from the queue.
    case delivered
    /// Already stored by an earlier attempt (entry 409): delete it, count it as a duplicate.
    case duplicate
    /// Malformed for the server (entry 400/422, or it alone fails a whole batch): dead-letter
    /// it with this reason; retrying will not help.
    case rejected(reason: String)
    /// Not allowed (entry 403: consent or permission missing): dead-letter it with this reason;
    /// `queue retry-dead` sends it again once consent exists. Not to be confused with samples
    /// held for the clock (`held.sqlite`), which never reached the server.
    case forbidden(reason: String)
    /// Not settled (network, server trouble, 401 after refresh, re-enrolment required, reply
    /// not matching the request): keep it queued and try again later.
    case retryLater(reason: String)
    /// Not uploaded by design (the strap reported no skin contact): drop it, count it.
    case skipped(reason: String)

    /// Whether the sample can leave the queue as done.
    package var isSettled: Bool {
        switch self {
        case .delivered, .duplicate, .skipped: true
        case .rejected, .forbidden, .retryLater: false
        }
    }

    /// Severity for combining the outcomes of the several data points one sample can produce
    /// (RR intervals, windowed statistics): the worst one decides.
    var severity: Int {
        switch self {
        case .delivered: 0
        case .duplicate: 1
        case .skipped: 2
        case .rejected: 3
        case .forbidden: 4
        case .retryLater: 5
        }
    }
}
