@testable import GatewayConfiguration
import Testing

/// A configuration file is untrusted input: however it is built, the reader ends with a value
/// or one short message, never a crash, in time that grows with the file's length alone.
@Suite("Configuration: TOML reader limits")
struct TOMLLimitsTests {
    /// A file that nests `levels` deep one way.
    struct Nesting: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let text: @Sendable (Int) -> String
    }

    static let nestings: [Nesting] = [
        Nesting(testDescription: "arrays") { (levels: Int) -> String in
            "a = " + String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
        },
        Nesting(testDescription: "inline tables") { (levels: Int) -> String in
            "a = " + String(repeating: "{ b = ", count: levels - 1) + "{}" + String(repeating: " }", count: levels - 1)
        },
        Nesting(testDescription: "dotted keys") { (levels: Int) -> String in
            Array(repeating: "k", count: levels + 1).joined(separator: ".") + " = 1"
        },
        Nesting(testDescription: "table headers") { (levels: Int) -> String in
            "[" + Array(repeating: "t", count: levels).joined(separator: ".") + "]"
        },
        Nesting(testDescription: "arrays of tables") { (levels: Int) -> String in
            "[[" + Array(repeating: "t", count: levels - 1).joined(separator: ".") + "]]"
        },
        Nesting(testDescription: "a header, a dotted key, an inline table and an array", text: mixed),
    ]

    /// A quarter of the levels each as header parts, dotted-key parts and inline tables, the
    /// rest as arrays.
    static func mixed(_ levels: Int) -> String {
        let quarter = levels / 4
        let arrays = levels - 3 * quarter
        let header = "[" + Array(repeating: "t", count: quarter).joined(separator: ".") + "]\n"
        let key = Array(repeating: "k", count: quarter + 1).joined(separator: ".") + " = "
        let opening = String(repeating: "{ i = ", count: quarter) + String(repeating: "[", count: arrays)
        let closing = String(repeating: "]", count: arrays) + String(repeating: " }", count: quarter)
        return header + key + opening + closing
    }

    @Test("64 levels of tables and arrays are read; 65, or 50,000 (100 KB), are refused with one message, not a crash", arguments: nestings)
    func nesting(_ nesting: Nesting) throws {
        _ = try TOMLParser.parse(nesting.text(TOMLParser.maximumDepth))
        for levels in [TOMLParser.maximumDepth + 1, 50_000] {
            let text = nesting.text(levels)
            let error = #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse(text) }
            #expect(error?.message == "nesting deeper than 64 levels (tables and arrays inside one another)")
            #expect(error.map { $0.line >= 1 && $0.line <= 2 } == true)
        }
    }

    /// A file of `count` repetitions of what `line` writes for each index.
    static func file(_ count: Int, _ line: (Int) -> String) -> String {
        var text = ""
        for index in 0 ..< count { text += line(index) }
        return text
    }

    @Test("100,000 keys, tables, array-of-tables entries, dotted keys or array elements read in time linear in the file")
    func linearTime() throws {
        let count = 100_000
        let files: [(String, String)] = [
            ("keys in one table", "[s]\n" + Self.file(count) { "key\($0) = \($0)\n" }),
            ("tables", Self.file(count) { "[t\($0)]\nk = 1\n" }),
            ("tables of one array", Self.file(count) { "[[a]]\nk = \($0)\n" }),
            ("dotted keys into one table", Self.file(count) { "a.k\($0) = 1\n" }),
            ("elements of one array", "a = [" + Self.file(count) { "\($0), " } + "]\n"),
        ]
        let clock = ContinuousClock()
        for (what, text) in files {
            var table = TOMLTable()
            let elapsed = try clock.measure { table = try TOMLParser.parse(text) }
            print("TOML reader: 100,000 \(what) (\(text.utf8.count / 1024) KiB) read in \(elapsed)")
            #expect(!table.keys.isEmpty)
            // Generous: only the quadratic reader (minutes) fails it, not a loaded machine.
            #expect(elapsed < .seconds(20), "100,000 \(what)")
        }
    }

    @Test("a syntax error quotes at most 80 characters of a key or value, then its length")
    func longTextCut() {
        let long = String(repeating: "k", count: 1 << 20)
        let cut = String(repeating: "k", count: 80) + "… (1048576 characters)"
        let cases: [(String, String)] = [
            ("\(long) = 1\n\(long) = 2\n", "key \(cut) is defined twice"),
            ("a = \(long)\n", "\(cut) is not a TOML value; a string needs quotes (\"\(cut)\"), a boolean is true or false"),
            ("[\(long)]\n[\(long)]\n", "table [\(cut)] is defined twice"),
            (
                "\(long) = 1\n\(long).b = 2\n",
                "key \(String(repeating: "k", count: 80))… (1048578 characters) goes through \(cut), which already has a value, not a table"
            ),
        ]
        for (text, message) in cases {
            let error = #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse(text) }
            #expect(error?.message == message)
        }
    }
}
