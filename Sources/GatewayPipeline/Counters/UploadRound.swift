#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OutputFormats
import Uplink

/// One upload round as the console's upload history shows it: when, how many samples, what
/// the server made of them, how long it took and, when some stay queued, why.
package struct UploadRound: Sendable, Equatable {
    /// The rounds the counter board keeps, newest last.
    static let kept = 20

    /// When the round settled.
    package var at: Date
    /// Stored (201).
    package var delivered = 0
    /// Already stored by an earlier attempt (409).
    package var duplicate = 0
    /// Refused for good: dead letters now.
    package var rejected = 0
    /// Not sent by design (no skin contact) and dropped.
    package var skipped = 0
    /// Left queued for the next round.
    package var unsettled = 0
    /// From the request to the reply, in seconds.
    package var seconds: Double
    /// Why samples stay queued (the first reason), if any did.
    package var error: String?

    /// The round of `outcomes`, settled at `at` after `latency`.
    init(_ outcomes: some Sequence<Outcome>, latency: Duration, at: Date) {
        self.at = at
        self.seconds = latency.seconds
        for outcome in outcomes {
            switch outcome {
            case .delivered: delivered += 1
            case .duplicate: duplicate += 1
            case .rejected, .forbidden: rejected += 1
            case .skipped: skipped += 1
            case .retryLater(let reason):
                unsettled += 1
                error = error ?? reason
            }
        }
    }

    /// Every sample of the round.
    package var samples: Int { delivered + duplicate + rejected + skipped + unsettled }
}
