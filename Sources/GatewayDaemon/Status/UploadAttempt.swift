#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One round of the uploader (a lease of pending samples handed to JHE), as kept in the
/// upload history (`<state>/upload-history.jsonl`, the last 200) and shown by
/// `edge-gateway status --history`.
public struct UploadAttempt: Codable, Sendable, Equatable {
    /// When the round started.
    var startedAt: Date
    /// How long it took.
    var durationSeconds: Double
    /// Samples leased for it.
    var samples: Int
    /// Outcome counts (they add up to `samples`).
    var delivered: Int
    var duplicate: Int
    var rejected: Int
    /// Refused with 403 (consent or permission missing).
    var forbidden: Int
    var skipped: Int
    var retryLater: Int
    /// The first reason a sample was not settled, if any.
    var error: String?

    /// The file's keys: `held` is what earlier builds called the 403 count, kept so their
    /// history reads back and old and new lines look alike.
    enum CodingKeys: String, CodingKey {
        case startedAt, durationSeconds, samples, delivered, duplicate, rejected
        case forbidden = "held"
        case skipped, retryLater, error
    }
}
