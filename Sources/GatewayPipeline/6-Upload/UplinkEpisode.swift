#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Tells an outage from the rounds inside it, so that an operator hears of it once, at once:
/// the first failed upload of an episode is logged at warning with its reason, those after it
/// at debug, and the first success after it at notice with how long the failure lasted.
/// `status` shows the current error and since when it has been failing.
struct UplinkEpisode {
    let logger: Logger
    let counters: DaemonCounters
    /// When the current failure began; nil while uploads go through.
    private var failingSince: Date?
    private var failedRounds = 0

    init(logger: Logger, counters: DaemonCounters) {
        self.logger = logger
        self.counters = counters
    }

    /// A round left `unsettled` samples queued for `reason`.
    mutating func failed(_ reason: String, at time: Date, unsettled: Int) {
        failedRounds += 1
        let since = failingSince ?? time
        counters.update { $0.uplinkFailing(reason, since: since) }
        let metadata: Logger.Metadata = ["reason": "\(reason)", "unsettled": "\(unsettled)"]
        if failingSince == nil {
            logger.warning("uploads are failing; the samples stay queued and are retried", metadata: metadata)
        } else {
            logger.debug("uploads still failing", metadata: metadata.merging(["failed_rounds": "\(failedRounds)"]) { $1 })
        }
        failingSince = since
    }

    /// A round went through; ends the episode if one was open.
    mutating func succeeded(at time: Date) {
        guard let since = failingSince else { return }
        logger.notice(
            "uploads recovered",
            metadata: [
                "failing_for_s": "\(Int(time.timeIntervalSince(since).rounded()))", "failed_rounds": "\(failedRounds)",
            ])
        failingSince = nil
        failedRounds = 0
        counters.update { $0.uplinkRecovered() }
    }
}
