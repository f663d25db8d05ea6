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

    /// The number the ASCII digits at the start of `status` write, if any (`201 Created` → 201).
    var statusCode: Int? {
        status.flatMap { Int(String(decoding: $0.utf8.prefix { (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0) }, as: UTF8.self)) }
    }
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

    private static let bundleFields = ["resourceType", "type", "entry"]
    private static let entryFields = ["resource", "response"]
    private static let responseFields = ["status", "outcome"]
    private static let outcomeFields = ["resourceType", "issue"]
    private static let issueFields = ["severity", "code", "diagnostics"]

    private mutating func document() throws(Malformed) -> Reply {
        var resourceType: String?
        var entries: [BatchResponseEntry]?
        try object(Self.bundleFields) { reader, field throws(Malformed) in
            switch field {
            case 0: resourceType = try reader.string()
            case 1: _ = try reader.optionalString()
            default: entries = try reader.entryList()
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
        try object(Self.entryFields) { reader, field throws(Malformed) in
            if field == 0 {
                // `{"resourceType":"Observation","id":"60010",…}`: only `id`'s type matters.
                if try reader.null() { return }
                try reader.object(["id"]) { reader, _ throws(Malformed) in _ = try reader.optionalString() }
            } else if try !reader.null() {
                entry = try reader.response()
            }
        }
        return entry
    }

    /// `{"status":"409 Conflict","outcome":{…}}`.
    private mutating func response() throws(Malformed) -> BatchResponseEntry {
        var status: String?
        var diagnostics = ""
        try object(Self.responseFields) { reader, field throws(Malformed) in
            if field == 0 {
                status = try reader.string()
            } else if try !reader.null() {
                diagnostics = try reader.outcome()
            }
        }
        guard let status else { throw Malformed() }
        return BatchResponseEntry(status: status, diagnostics: diagnostics)
    }

    /// An OperationOutcome (`resourceType` and `issue` required): its diagnostics, joined.
    private mutating func outcome() throws(Malformed) -> String {
        var diagnostics: [String] = []
        let seen = try object(Self.outcomeFields) { reader, field throws(Malformed) in
            if field == 0 {
                _ = try reader.string()
                return
            }
            try reader.beginArray()
            var started = false
            while try reader.nextElement(&started) {
                // An issue: `severity` and `code` required, `diagnostics` optional.
                let issue = try reader.object(Self.issueFields) { reader, field throws(Malformed) in
                    if field < 2 {
                        _ = try reader.string()
                    } else if let text = try reader.optionalString() {
                        diagnostics.append(text)
                    }
                }
                guard issue & 0b011 == 0b011 else { throw Malformed() }
            }
        }
        guard seen == 0b11 else { throw Malformed() }
        return diagnostics.joined(separator: "; ")
    }
}
