#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OutputFormats
import Uplink

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

    /// The file's keys: `held` is what earlier builds called the 403 count, kept so their
    /// history reads back and old and new lines look alike.
    enum CodingKeys: String, CodingKey {
        case startedAt, durationSeconds, samples, delivered, duplicate, rejected
        case forbidden = "held"
        case skipped, retryLater, error
    }
}

extension UploadAttempt {
    /// The history entry for one delivery, counted from its per-sample outcomes.
    package init(outcomes: [Outcome], startedAt: Date, latency: Duration) {
        func count(_ matches: (Outcome) -> Bool) -> Int { outcomes.count(where: matches) }
        self.init(
            startedAt: startedAt, durationSeconds: latency.seconds, samples: outcomes.count,
            delivered: count { $0 == .delivered }, duplicate: count { $0 == .duplicate },
            rejected: count { if case .rejected = $0 { true } else { false } },
            forbidden: count { if case .forbidden = $0 { true } else { false } },
            skipped: count { if case .skipped = $0 { true } else { false } },
            retryLater: count { if case .retryLater = $0 { true } else { false } },
            error: outcomes.lazy.compactMap(\.unsettledReason).first)
    }
}

extension UploadAttempt {
    /// The attempt as its history line holds it, without the newline: by hand, as `status.json`
    /// is, byte for byte what `JSONEncoder` wrote (`.iso8601` dates, sorted keys, slashes
    /// unescaped), so older lines and newer ones read alike. The uploader appends one a round.
    package var jsonBytes: [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.key("delivered")
        json.integer(delivered)
        json.key("duplicate")
        json.integer(duplicate)
        json.key("durationSeconds")
        json.seconds(durationSeconds)
        if let error {
            json.key("error")
            json.string(error)
        }
        json.key("held")
        json.integer(forbidden)
        json.key("rejected")
        json.integer(rejected)
        json.key("retryLater")
        json.integer(retryLater)
        json.key("samples")
        json.integer(samples)
        json.key("skipped")
        json.integer(skipped)
        json.key("startedAt")
        json.date(startedAt)
        json.endObject()
        return json.bytes
    }
}

extension Outcome {
    /// Why the sample is not settled yet, if it is not.
    fileprivate var unsettledReason: String? {
        switch self {
        case .rejected(let reason), .forbidden(let reason), .retryLater(let reason): reason
        case .delivered, .duplicate, .skipped: nil
        }
    }
}
