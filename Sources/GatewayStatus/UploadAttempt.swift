#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One round of the uploader (a lease of pending samples handed to JHE), as kept in the
/// upload history (`<state>/upload-history.jsonl`, the last 200) and shown by
/// `edge-gateway status --history`.
package struct UploadAttempt: Codable, Sendable, Equatable {
    /// When the round started.
    package var startedAt: Date
    /// How long it took.
    package var durationSeconds: Double
    /// Samples leased for it.
    package var samples: Int
    /// Outcome counts (they add up to `samples`).
    package var delivered: Int
    /// JHE already had them (409).
    package var duplicate: Int
    /// Refused for good (400/422): dead-lettered.
    package var rejected: Int
    /// Refused with 403 (consent or permission missing).
    package var forbidden: Int
    /// Not sent (no contact, when `drop_no_contact` is set).
    package var skipped: Int
    /// Left pending for a later round.
    package var retryLater: Int
    /// The first reason a sample was not settled, if any.
    package var error: String?

    /// Every field given: the memberwise initializer, which Swift would make only `internal`.
    package init(
        startedAt: Date,
        durationSeconds: Double,
        samples: Int,
        delivered: Int,
        duplicate: Int,
        rejected: Int,
        forbidden: Int,
        skipped: Int,
        retryLater: Int,
        error: String? = nil
    ) {
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.samples = samples
        self.delivered = delivered
        self.duplicate = duplicate
        self.rejected = rejected
        self.forbidden = forbidden
        self.skipped = skipped
        self.retryLater = retryLater
        self.error = error
    }

    /// The file's keys: `held` is what earlier builds called the 403 count, kept so their
    /// history reads back and old and new lines look alike.
    enum CodingKeys: String, CodingKey {
        case startedAt, durationSeconds, samples, delivered, duplicate, rejected
        case forbidden = "held"
        case skipped, retryLater, error
    }
}
