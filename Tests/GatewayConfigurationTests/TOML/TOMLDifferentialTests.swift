import Foundation
@testable import GatewayConfiguration
import GatewayTestSupport
import Testing

/// The gateway's TOML reader against Python's `tomllib`, a second TOML 1.0 reader written
/// independently: thousands of documents made by mutating toml-test's files (a byte deleted,
/// a byte of TOML's syntax inserted, a line doubled, two files spliced) must be refused by both
/// or read by both to the same values. toml-test says what its own files mean; this finds what
/// nobody wrote a test for. Fixed seed, so a disagreement replays; `TOML_DIFFERENTIAL_COUNT`
/// and `TOML_DIFFERENTIAL_SEED` run more or other documents.
@Suite("Configuration: TOML reader against Python's tomllib")
struct TOMLDifferentialTests {
    static let helper = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tomllib-tagged.py").path

    /// TOML's syntax, and what sits next to it, for insertions.
    static let alphabet = Array("[]{}=\"'.,#\\ \t\n\r-+:_0123456789eEaxTZtfn".utf8)

    @Test("mutated toml-test documents are refused by both readers or read by both to the same values")
    func agreesWithTomllib() async throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["TOML_DIFFERENTIAL_COUNT"].flatMap(Int.init) ?? 3000
        var random = SplitMix64(seed: environment["TOML_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 0x70D1)
        let sources = try (TOMLConformanceTests.files(in: "valid") + TOMLConformanceTests.files(in: "invalid"))
            .map(TOMLConformanceTests.bytes)
        let scratch = try TemporaryDirectory("toml-differential")
        defer { scratch.remove() }
        var documents: [[UInt8]] = []
        for index in 0 ..< count {
            let document = Self.mutant(of: sources, using: &random)
            documents.append(document)
            try Data(document).write(to: URL(fileURLWithPath: scratch.file(String(format: "%05d.toml", index))))
        }
        let python = try await GatewayProcess.run([Self.helper, scratch.path], executable: "python3", timeout: .seconds(600))
        try #require(python.status == 0, "python3 with tomllib (3.11 or later) is needed: \(python.standardError)")

        var agreed = (refused: 0, read: 0)
        for (index, document) in documents.enumerated() {
            let name = scratch.file(String(format: "%05d", index))
            let theirs = try? Data(contentsOf: URL(fileURLWithPath: name + ".json"))
            let ours = Result { () throws(TOMLSyntaxError) in try TOMLParser.parse(utf8: document) }
            let text = String(decoding: document.prefix(300), as: UTF8.self).debugDescription
            switch (ours, theirs) {
            case (.failure, nil):
                agreed.refused += 1
            case (.success(let table), let json?):
                let expected = try JSONSerialization.jsonObject(with: json)
                if let difference = TOMLConformanceTests.difference(Self.microseconds(.table(table)), expected, at: "") {
                    Issue.record("document \(index) read differently: \(difference)\n\(text)")
                } else {
                    agreed.read += 1
                }
            case (.success, nil):
                let why = (try? String(contentsOfFile: name + ".refused", encoding: .utf8)) ?? "?"
                Issue.record("document \(index) read here, refused by tomllib (\(why))\n\(text)")
            case (.failure(let error), _?):
                Issue.record("document \(index) refused here (\(error.line):\(error.column) \(error.message)), read by tomllib\n\(text)")
            }
        }
        print("TOML differential: \(count) documents, \(agreed.refused) refused by both, \(agreed.read) read alike by both")
    }

    /// One document: a corpus file with one to three mutations, or two files spliced.
    static func mutant(of sources: [[UInt8]], using random: inout SplitMix64) -> [UInt8] {
        var bytes = sources[Int(random.next() % UInt64(sources.count))]
        if random.next() % 8 == 0 {
            let other = sources[Int(random.next() % UInt64(sources.count))]
            let kept = Int(random.next() % UInt64(bytes.count + 1))
            let added = Int(random.next() % UInt64(other.count + 1))
            bytes = Array(bytes.prefix(kept)) + Array(other.suffix(added))
        }
        for _ in 0 ... random.next() % 3 {
            let at = Int(random.next() % UInt64(bytes.count + 1))
            switch random.next() % 3 {
            case 0 where at < bytes.count:
                bytes.remove(at: at)
            case 1:
                let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                let line = Int(random.next() % UInt64(lines.count))
                let newline: [UInt8] = [UInt8(ascii: "\n")]
                let head: [UInt8] = Array(lines[...line].joined(separator: newline))
                let tail: [UInt8] = Array(lines[line...].joined(separator: newline))
                bytes = head + newline + tail
            default:
                bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
            }
        }
        return bytes
    }

    /// `value` with every time's fraction cut to microseconds, tomllib's precision (TOML 1.0
    /// lets a reader truncate what it cannot hold).
    static func microseconds(_ value: TOMLValue) -> TOMLValue {
        switch value {
        case .dateTime(let moment):
            let time = moment.time.map {
                TOMLDateTime.LocalTime(hour: $0.hour, minute: $0.minute, second: $0.second, nanosecond: $0.nanosecond / 1000 * 1000)
            }
            return .dateTime(TOMLDateTime(date: moment.date, time: time, offset: moment.offset))
        case .array(let elements): return .array(elements.map(microseconds))
        case .table(let table):
            var cut = TOMLTable()
            for key in table.keys { cut.append(key, microseconds(table[key]!)) }
            return .table(cut)
        default: return value
        }
    }
}
