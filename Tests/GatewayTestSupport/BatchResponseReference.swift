#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the uplink's `BatchResponseReader` is held to: the `batch-response` Bundle typed as
/// FHIR types it and read by `JSONDecoder`. Used by the reply tests and
/// `Fuzz/UplinkReplyFuzzer.swift`.
package struct FHIRBatchResponse: Codable, Sendable, Equatable {
    /// `Bundle`.
    package var resourceType: String
    /// `batch-response`.
    package var type: String?
    /// Per-entry results.
    package var entry: [Entry]?

    /// One per-entry result.
    package struct Entry: Codable, Sendable, Equatable {
        /// The stored resource's id on success.
        package var resource: StoredResource?
        /// The entry's status line and, on failure, an OperationOutcome.
        package var response: Response?
    }

    /// `{"resourceType":"Resource","id":"60010"}`.
    package struct StoredResource: Codable, Sendable, Equatable {
        /// The server's id for the stored Observation.
        package var id: String?
    }

    /// `{"status":"409 Conflict","outcome":{…}}`.
    package struct Response: Codable, Sendable, Equatable {
        /// `201 Created`, `409 Conflict`, …
        package var status: String
        /// Why an entry failed.
        package var outcome: OperationOutcome?

        /// The numeric status at the start of `status`, if any.
        package var statusCode: Int? { Int(status.prefix { $0.isNumber }) }
    }
}

/// A FHIR OperationOutcome (the diagnostics of a failed entry).
package struct OperationOutcome: Codable, Sendable, Equatable {
    /// `OperationOutcome`.
    package var resourceType: String
    /// The issues.
    package var issue: [Issue]

    /// An outcome with one error issue.
    package init(diagnostics: String, code: String = "processing") {
        resourceType = "OperationOutcome"
        issue = [Issue(severity: "error", code: code, diagnostics: diagnostics)]
    }

    /// One issue.
    package struct Issue: Codable, Sendable, Equatable {
        /// `error`.
        package var severity: String
        /// `processing`, `invalid`, …
        package var code: String
        /// The server's explanation.
        package var diagnostics: String?
    }

    /// All diagnostics joined, for an operator-facing reason.
    package var summary: String {
        issue.compactMap(\.diagnostics).joined(separator: "; ")
    }
}

extension FHIRBatchResponse {
    /// `JSONDecoder`'s reading of `body`, or nil where it refuses it.
    package static func decode(_ body: Data) -> FHIRBatchResponse? {
        try? JSONDecoder().decode(FHIRBatchResponse.self, from: body)
    }

    /// Each entry as the gateway sees it: its status, and the diagnostics of its outcome joined.
    package var statuses: [(status: String?, diagnostics: String)]? {
        entry?.map { ($0.response?.status, $0.response?.outcome?.summary ?? "") }
    }
}
