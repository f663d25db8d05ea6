/// The `batch-response` JHE answers with: one entry per request entry, in request order.
public struct FHIRBatchResponse: Codable, Sendable, Equatable {
    /// `Bundle`.
    public var resourceType: String
    /// `batch-response`.
    public var type: String?
    /// Per-entry results.
    public var entry: [Entry]?

    /// One per-entry result.
    public struct Entry: Codable, Sendable, Equatable {
        /// The stored resource's id on success.
        public var resource: StoredResource?
        /// The entry's status line and, on failure, an OperationOutcome.
        public var response: Response?
    }

    /// `{"resourceType":"Resource","id":"60010"}`.
    public struct StoredResource: Codable, Sendable, Equatable {
        /// The server's id for the stored Observation.
        public var id: String?
    }

    /// `{"status":"409 Conflict","outcome":{…}}`.
    public struct Response: Codable, Sendable, Equatable {
        /// `201 Created`, `409 Conflict`, …
        public var status: String
        /// Why an entry failed.
        public var outcome: OperationOutcome?

        /// The numeric status at the start of `status`, if any.
        public var statusCode: Int? { Int(status.prefix { $0.isNumber }) }
    }
}

/// A FHIR OperationOutcome (the diagnostics of a failed entry).
public struct OperationOutcome: Codable, Sendable, Equatable {
    /// `OperationOutcome`.
    public var resourceType: String
    /// The issues.
    public var issue: [Issue]

    /// An outcome with one error issue.
    public init(diagnostics: String, code: String = "processing") {
        resourceType = "OperationOutcome"
        issue = [Issue(severity: "error", code: code, diagnostics: diagnostics)]
    }

    /// One issue.
    public struct Issue: Codable, Sendable, Equatable {
        /// `error`.
        public var severity: String
        /// `processing`, `invalid`, …
        public var code: String
        /// The server's explanation.
        public var diagnostics: String?
    }

    /// All diagnostics joined, for an operator-facing reason.
    public var summary: String {
        issue.compactMap(\.diagnostics).joined(separator: "; ")
    }
}
