#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One entry of the `batch-response` Bundle JHE answers a batch with (contract §8).
struct BatchResponseEntry: Equatable {
    /// `201 Created`, `409 Conflict`, …; nil when the entry has no `response`.
    var status: String?
    /// The diagnostics of the entry's OperationOutcome, joined with "; "; empty without any.
    var diagnostics: String

    /// The numeric status at the start of `status`, if any.
    var statusCode: Int? { status.flatMap { Int($0.prefix { $0.isNumber }) } }
}

/// Reads a `batch-response` Bundle straight from the reply's bytes, for what the uploader needs
/// of it: its `resourceType` and each entry's status and diagnostics.
///
/// Why not `JSONDecoder`: it built every value of the reply through `Decodable`'s containers,
/// a tenth of the daemon's upload round (docs/PERFORMANCE.md). This reader checks every byte
/// (JSON's grammar, UTF-8, FHIR's types for the fields it reads) but builds only the strings it
/// returns. It refuses whatever `JSONDecoder` refuses for that shape, and a little more (a field
/// it reads given twice in one object, nesting deeper than 64, and what JSONDecoder forgives: a
/// trailing comma, a malformed number in a field it skips), so a reply it reads is one the
/// server sent whole: `Fuzz/UplinkReplyFuzzer.swift` and the reply tests hold it to that
/// against `JSONDecoder` with the FHIR model (`Tests/GatewayTestSupport/BatchResponseReference.swift`).
struct BatchResponseReader {
    /// Why a reply is unreadable; the caller says so in words of its own.
    struct Malformed: Error {}

    /// What a readable reply holds.
    struct Reply {
        /// `Bundle` for a batch-response.
        var resourceType: String
        /// The entries, in reply order; nil when the reply has no `entry` (or `null`).
        var entries: [BatchResponseEntry]?
    }

    /// The reply's bytes, read from `index` on.
    let bytes: UnsafeRawBufferPointer
    /// The next byte to read.
    var index = 0
    /// Objects and arrays open at `index`.
    var depth = 0
    /// Deeper nesting is refused (JSONDecoder's own limit is 512).
    static let maximumDepth = 64

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The Bundle in `body`, or nil when it is not a readable batch-response.
    static func read(_ body: Data) -> Reply? {
        body.withUnsafeBytes { buffer in
            var reader = BatchResponseReader(bytes: buffer)
            return try? reader.document()
        }
    }

    // MARK: The Bundle's shape

    private mutating func document() throws(Malformed) -> Reply {
        var resourceType: String?
        var entries: [BatchResponseEntry]?
        var seen = Seen()
        try beginObject()
        var started = false
        while let key = try nextMember(&started) {
            switch key {
            case "resourceType":
                try seen.first(0)
                resourceType = try string()
            case "type":
                try seen.first(1)
                _ = try optionalString()
            case "entry":
                try seen.first(2)
                entries = try entryList()
            default: try skipValue()
            }
        }
        skipWhitespace()
        guard let resourceType, index == bytes.count else { throw Malformed() }
        return Reply(resourceType: resourceType, entries: entries)
    }

    private mutating func entryList() throws(Malformed) -> [BatchResponseEntry]? {
        if try null() { return nil }
        try beginArray()
        var entries: [BatchResponseEntry] = []
        var started = false
        while try nextElement(&started) { entries.append(try entry()) }
        return entries
    }

    private mutating func entry() throws(Malformed) -> BatchResponseEntry {
        var entry = BatchResponseEntry(status: nil, diagnostics: "")
        var seen = Seen()
        try beginObject()
        var started = false
        while let key = try nextMember(&started) {
            switch key {
            case "resource":
                try seen.first(0)
                try resource()
            case "response":
                try seen.first(1)
                if try !null() { entry = try response() }
            default: try skipValue()
            }
        }
        return entry
    }

    /// `{"resourceType":"Observation","id":"60010",…}`: only `id`'s type matters.
    private mutating func resource() throws(Malformed) {
        if try null() { return }
        var seen = Seen()
        try beginObject()
        var started = false
        while let key = try nextMember(&started) {
            if key == "id" {
                try seen.first(0)
                _ = try optionalString()
            } else {
                try skipValue()
            }
        }
    }

    /// `{"status":"409 Conflict","outcome":{…}}`.
    private mutating func response() throws(Malformed) -> BatchResponseEntry {
        var status: String?
        var diagnostics = ""
        var seen = Seen()
        try beginObject()
        var started = false
        while let key = try nextMember(&started) {
            switch key {
            case "status":
                try seen.first(0)
                status = try string()
            case "outcome":
                try seen.first(1)
                if try !null() { diagnostics = try outcome() }
            default: try skipValue()
            }
        }
        guard let status else { throw Malformed() }
        return BatchResponseEntry(status: status, diagnostics: diagnostics)
    }

    /// An OperationOutcome: its diagnostics, joined.
    private mutating func outcome() throws(Malformed) -> String {
        var resourceType = false
        var diagnostics: [String]?
        var seen = Seen()
        try beginObject()
        var started = false
        while let key = try nextMember(&started) {
            switch key {
            case "resourceType":
                try seen.first(0)
                _ = try string()
                resourceType = true
            case "issue":
                try seen.first(1)
                diagnostics = try issues()
            default: try skipValue()
            }
        }
        guard resourceType, let diagnostics else { throw Malformed() }
        return diagnostics.joined(separator: "; ")
    }

    private mutating func issues() throws(Malformed) -> [String] {
        try beginArray()
        var diagnostics: [String] = []
        var started = false
        while try nextElement(&started) {
            var (severity, code) = (false, false)
            var seen = Seen()
            try beginObject()
            var inIssue = false
            while let key = try nextMember(&inIssue) {
                switch key {
                case "severity":
                    try seen.first(0)
                    _ = try string()
                    severity = true
                case "code":
                    try seen.first(1)
                    _ = try string()
                    code = true
                case "diagnostics":
                    try seen.first(2)
                    if let text = try optionalString() { diagnostics.append(text) }
                default: try skipValue()
                }
            }
            guard severity, code else { throw Malformed() }
        }
        return diagnostics
    }

    /// The fields already read in one object: each may appear once.
    private struct Seen {
        private var fields: UInt8 = 0
        mutating func first(_ field: UInt8) throws(Malformed) {
            guard fields & (1 << field) == 0 else { throw Malformed() }
            fields |= 1 << field
        }
    }
}
