import Foundation
import GatewayTestSupport
import Testing
@testable import Uplink

/// The batch reply's reader against `JSONDecoder` with FHIR's types: it reads what that reads,
/// as it reads it, and never reads what that refuses.
@Suite("Uplink batch reply reader")
struct BatchResponseReaderTests {
    /// Replies of the kinds JHE sends, with what a server may add: unknown fields, nulls, escapes,
    /// characters outside ASCII, whitespace anywhere JSON allows it.
    static let replies: [String] = [
        #"{"resourceType": "Bundle", "type": "batch-response", "entry": [{"resource": {"resourceType": "Observation", "id": "60010", "meta": {"lastUpdated": "2026-11-25T10:00:00Z", "versionId": 1}}, "response": {"status": "201 Created", "location": "Observation/60010"}}, {"response": {"status": "409 Conflict", "outcome": {"resourceType": "OperationOutcome", "issue": [{"severity": "error", "code": "duplicate", "diagnostics": "Observation already exists"}]}}}]}"#,
        #"{"resourceType":"Bundle","entry":[{"response":{"status":"422 Unprocessable Entity","outcome":{"resourceType":"OperationOutcome","issue":[{"severity":"error","code":"invalid","diagnostics":"13 is less than the minimum of 30 \u2013 \"beats/min\""},{"severity":"warning","code":"processing","diagnostics":null},{"severity":"error","code":"invalid","diagnostics":"caf\u00e9 \ud83d\ude00 \/ \\ \n"}]}}}]}"#,
        "{\n  \"entry\" : [ { \"response\" : { \"status\" : \"403 Forbidden\" , \"outcome\" : null } , \"resource\" : null } ,\n {\"search\": [1, -2.5e+3, 0.0, true, false, null, {}, []], \"response\": null} ] ,\r\n\t\"resourceType\" : \"Bundle\" , \"type\" : null , \"total\": 2 }  \n",
        #"{"resourceType": "Bundle", "type": "batch-response", "entry": []}"#,
        #"{"resourceType": "Bundle", "type": "batch-response"}"#,
        #"{"resourceType": "Bundle", "entry": null, "note": "élan ✓"}"#,
        #"{"resourceType": "OperationOutcome", "issue": [{"severity": "error", "code": "exception", "diagnostics": "database is down"}]}"#,
        #"{"resourceType": "Bundle", "entry": [{"response": {"status": "201 Created", "outcome": {"resourceType": "OperationOutcome", "issue": []}}}]}"#,
    ]

    @Test("reads JHE's replies as JSONDecoder does: the Bundle's type, each entry's status and diagnostics")
    func readsLikeJSONDecoder() throws {
        for reply in Self.replies {
            let body = Data(reply.utf8)
            let reference = try #require(FHIRBatchResponse.decode(body), "JSONDecoder refuses \(reply)")
            let read = try #require(BatchResponseReader.read(body), "the reader refuses \(reply)")
            #expect(read.resourceType == reference.resourceType)
            #expect(Self.flat(read.entries) == Self.flat(reference.statuses), "\(reply)")
        }
        let read = try #require(BatchResponseReader.read(Data(Self.replies[1].utf8)))
        #expect(read.entries?.first?.diagnostics == "13 is less than the minimum of 30 – \"beats/min\"; café 😀 / \\ \n")
        #expect(read.entries?.first?.statusCode == 422)
    }

    @Test(
        "refuses replies JSONDecoder refuses: bad JSON, bad UTF-8, FHIR's types broken, a required field missing",
        arguments: [
            #"{"resourceType": "Bundle", "entry": [{"response": {"status": "201 Created"}}]} x"#,
            #"{"resourceType": "Bundle", "entry": [{"response": {"status": 201}}]}"#,
            #"{"resourceType": "Bundle", "entry": [{"response": {"outcome": null}}]}"#,
            #"{"resourceType": "Bundle", "entry": [{"resource": {"id": 60010}}]}"#,
            #"{"resourceType": "Bundle", "entry": [null]}"#,
            #"{"resourceType": "Bundle", "entry": {"response": {"status": "201 Created"}}}"#,
            #"{"resourceType": "Bundle", "type": 3}"#,
            #"{"type": "batch-response", "entry": []}"#,
            #"{"resourceType": "Bundle", "entry": [{"response": {"status": "409", "outcome": {"issue": []}}}]}"#,
            #"{"resourceType": "Bundle", "entry": [{"response": {"status": "409", "outcome": {"resourceType": "OperationOutcome", "issue": [{"code": "x"}]}}}]}"#,
            #"{"resourceType": "Bundle", "entry": [{"response": {"status": "201 \ud800 Created"}}]}"#,
            #"{"resourceType": "Bundle", "entry": [{"response": {"status": "201 \x Created"}}]}"#,
            "{\"resourceType\": \"Bundle\", \"entry\": [{\"response\": {\"status\": \"201\tCreated\"}}]}",
            #"{"resourceType": "Bundle", "ok": tru, "entry": []}"#,
            #"["resourceType", "Bundle"]"#,
            "",
        ])
    func refusesWhatJSONDecoderRefuses(reply: String) {
        #expect(FHIRBatchResponse.decode(Data(reply.utf8)) == nil)
        #expect(BatchResponseReader.read(Data(reply.utf8)) == nil)
    }

    /// JSONDecoder takes a trailing comma, and numbers it does not decode unchecked; a server
    /// that sends them sends something other than JSON, which is not a reply to trust.
    @Test(
        "refuses what JSONDecoder forgives: a trailing comma, a malformed number it skips",
        arguments: [
            #"{"resourceType": "Bundle", "entry": [{"response": {"status": "201 Created"}},]}"#,
            #"{"resourceType": "Bundle", "entry": [{"response": {"status": "201 Created"},}]}"#,
            #"{"resourceType": "Bundle", "total": 01, "entry": []}"#,
            #"{"resourceType": "Bundle", "total": -, "entry": []}"#,
            #"{"resourceType": "Bundle", "total": 1., "entry": []}"#,
        ])
    func refusesWhatJSONDecoderForgives(reply: String) {
        #expect(FHIRBatchResponse.decode(Data(reply.utf8)) != nil)
        #expect(BatchResponseReader.read(Data(reply.utf8)) == nil)
    }

    @Test("refuses invalid UTF-8 in any string, read or skipped")
    func refusesInvalidUTF8() {
        for bytes: [UInt8] in [[0xC3, 0x28], [0xFF], [0xED, 0xA0, 0x80], [0xE2, 0x82]] {
            var body = Array(#"{"resourceType": "Bundle", "entry": [], "note": ""#.utf8)
            body += bytes + Array(#""}"#.utf8)
            #expect(BatchResponseReader.read(Data(body)) == nil, "\(bytes)")
        }
    }

    @Test("refuses a field it reads given twice in one object, and nesting deeper than 64")
    func refusesDuplicatesAndDepth() {
        let twice = #"{"resourceType": "Bundle", "entry": [{"response": {"status": "201 Created", "status": "409 Conflict"}}]}"#
        #expect(BatchResponseReader.read(Data(twice.utf8)) == nil)
        let deep = #"{"resourceType": "Bundle", "x": "# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"
        #expect(BatchResponseReader.read(Data(deep.utf8)) == nil)
        let shallow = #"{"resourceType": "Bundle", "x": "# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
        #expect(BatchResponseReader.read(Data(shallow.utf8))?.resourceType == "Bundle")
    }

    /// 20,000 replies mutated from the ones above (bytes deleted, inserted from JSON's own
    /// alphabet, spans doubled; fixed seed, `BATCH_REPLY_MUTATIONS`/`_SEED` for more): whatever the
    /// reader reads, JSONDecoder reads alike. Refusals differ only where the reader is stricter.
    @Test("on 20,000 mutated replies, what the reader reads JSONDecoder reads alike")
    func mutatedRepliesAgree() {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["BATCH_REPLY_MUTATIONS"].flatMap(Int.init) ?? 20_000
        let seed = environment["BATCH_REPLY_MUTATIONS_SEED"].flatMap(UInt64.init) ?? 34
        var random = SplitMix64(seed: seed)
        let alphabet = Array(#"{}[]:,"\ u0123456789abcdefABCDEF+-.eEtrnulsf"#.utf8) + [0x09, 0x0A, 0xC3, 0xA9, 0xFF, 0x00]
        var (readBoth, refusedBoth, referenceOnly) = (0, 0, 0)
        for _ in 0 ..< count {
            var bytes = Array(Self.replies.randomElement(using: &random)!.utf8)
            for _ in 0 ..< Int.random(in: 1 ... 3, using: &random) {
                let at = Int.random(in: 0 ... bytes.count, using: &random)
                switch Int.random(in: 0 ..< 3, using: &random) {
                case 0 where at < bytes.count: bytes.remove(at: at)
                case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
                default:
                    let end = min(bytes.count, at + Int.random(in: 1 ... 12, using: &random))
                    bytes.insert(contentsOf: bytes[at ..< end], at: at)
                }
            }
            let body = Data(bytes)
            let reference = FHIRBatchResponse.decode(body)
            switch (BatchResponseReader.read(body), reference) {
            case (let read?, let reference?):
                readBoth += 1
                #expect(
                    read.resourceType == reference.resourceType && Self.flat(read.entries) == Self.flat(reference.statuses),
                    "seed \(seed): read otherwise: \(String(decoding: bytes, as: UTF8.self))")
            case (.some, nil):
                Issue.record("seed \(seed): read what JSONDecoder refuses: \(String(decoding: bytes, as: UTF8.self))")
            case (nil, .some): referenceOnly += 1
            case (nil, nil): refusedBoth += 1
            }
        }
        // The reader may refuse more than JSONDecoder (a field read twice, a trailing comma, a
        // malformed number), but not much more.
        #expect(
            readBoth > count / 20 && refusedBoth > count / 2 && referenceOnly < count / 50,
            "read by both \(readBoth), refused by both \(refusedBoth), read by JSONDecoder alone \(referenceOnly)")
    }

    private static func flat(_ entries: [BatchResponseEntry]?) -> [[String]]? {
        entries?.map { [$0.status ?? "-", $0.diagnostics] }
    }

    private static func flat(_ entries: [(status: String?, diagnostics: String)]?) -> [[String]]? {
        entries?.map { [$0.status ?? "-", $0.diagnostics] }
    }
}
