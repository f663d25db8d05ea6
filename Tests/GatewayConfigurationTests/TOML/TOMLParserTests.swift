@testable import GatewayConfiguration
import Testing

/// The gateway's own TOML reader accepts TOML 1.0 as the specification writes it and refuses
/// what the specification refuses, each time naming the line, the column and the mistake.
@Suite("Configuration: TOML reader")
struct TOMLParserTests {
    func table(_ text: String) throws -> TOMLTable {
        try TOMLParser.parse(text)
    }

    func section(_ name: String, of text: String) throws -> TOMLTable {
        guard case .table(let table)? = try table(text)[name] else {
            Issue.record("no table \(name)")
            return TOMLTable()
        }
        return table
    }

    @Test("the four kinds of string, with every escape and multi-line trimming, read to the characters meant")
    func strings() throws {
        let text = #"""
            [s]
            basic = "tab\tquote\" back\\ é \u00E9 \U0001F600 \b\f\n\r"
            literal = 'C:\Users\nodejs'
            multi = """
            Roses are red
            Violets are blue"""
            trimmed = """\
                The quick \
                brown fox."""
            quotes = """two "" here, and one at the end""""
            raw = '''
            first 'line'
            second'''
            empty = ""
            "quoted key" = 1
            'literal key' = 2
            """#
        let s = try section("s", of: text)
        #expect(s["basic"] == .string("tab\tquote\" back\\ é é 😀 \u{8}\u{C}\n\r"))
        #expect(s["literal"] == .string(#"C:\Users\nodejs"#))
        #expect(s["multi"] == .string("Roses are red\nViolets are blue"))
        #expect(s["trimmed"] == .string("The quick brown fox."))
        #expect(s["quotes"] == .string(#"two "" here, and one at the end""#))
        #expect(s["raw"] == .string("first 'line'\nsecond"))
        #expect(s["empty"] == .string(""))
        #expect(s["quoted key"] == .integer(1))
        #expect(s["literal key"] == .integer(2))
    }

    /// A date or time value as its kind and its RFC 3339 text.
    func moment(_ value: TOMLValue?) -> String? {
        guard case .dateTime(let moment)? = value else { return nil }
        return "\(moment.kind) \(moment)"
    }

    @Test("integers in every base and with underscores, booleans, floats, dates and times, arrays and inline tables")
    func scalars() throws {
        let text = """
            [n]
            a = +99
            b = -17
            c = 0
            d = 1_000_000
            e = 0xDEAD_beef
            f = 0o755
            g = 0b1101
            h = 9223372036854775807
            i = -9223372036854775808
            t = true
            u = false
            x = 6.626e-34
            y = -inf
            z = 1979-05-27T07:32:00-08:00
            w = 1979-05-27 07:32:00.999
            v = 1979-05-27
            q = 07:32:00.1234567891
            p = 2024-02-29t23:59:60z
            r = [ 1, "two", [3.0], { four = 4 }, ] # comment
            m = [
              "hci0", # first
              "hci1",
            ]
            o = { batch_size = 5, nested.key = "x" }
            """
        let n = try section("n", of: text)
        #expect(n["a"] == .integer(99))
        #expect(n["b"] == .integer(-17))
        #expect(n["c"] == .integer(0))
        #expect(n["d"] == .integer(1_000_000))
        #expect(n["e"] == .integer(0xDEADBEEF))
        #expect(n["f"] == .integer(0o755))
        #expect(n["g"] == .integer(0b1101))
        #expect(n["h"] == .integer(Int.max))
        #expect(n["i"] == .integer(Int.min))
        #expect(n["t"] == .boolean(true))
        #expect(n["u"] == .boolean(false))
        #expect(n["x"] == .float(6.626e-34))
        #expect(n["y"] == .float(-.infinity))
        #expect(moment(n["z"]) == "an offset date-time 1979-05-27T07:32:00-08:00")
        #expect(moment(n["w"]) == "a local date-time 1979-05-27T07:32:00.999")
        #expect(moment(n["v"]) == "a local date 1979-05-27")
        #expect(moment(n["q"]) == "a local time 07:32:00.123456789")
        #expect(moment(n["p"]) == "an offset date-time 2024-02-29T23:59:60Z")
        var four = TOMLTable()
        four.append("four", .integer(4))
        #expect(n["r"] == .array([.integer(1), .string("two"), .array([.float(3)]), .table(four)]))
        #expect(n["m"] == .array([.string("hci0"), .string("hci1")]))
        guard case .table(let inline)? = n["o"] else {
            Issue.record("o is not a table")
            return
        }
        #expect(inline.keys == ["batch_size", "nested"])
        #expect(inline["batch_size"] == .integer(5))
    }

    @Test("[[name]] adds a table to an array of tables, and [name.sub] goes into its last table")
    func arraysOfTables() throws {
        let root = try table("[[s]]\nk = 1\n[s.sub]\nl = 2\n[[s]]\nk = 3\n[[s.list]]\n")
        guard case .array(let elements)? = root["s"], elements.count == 2, case .table(let first) = elements[0], case .table(let second) = elements[1],
            case .table(let sub)? = first["sub"], case .array(let list)? = second["list"]
        else {
            Issue.record("arrays of tables missing: \(root)")
            return
        }
        #expect(first["k"] == .integer(1))
        #expect(sub["l"] == .integer(2))
        #expect(second["k"] == .integer(3))
        #expect(list == [.table(TOMLTable())])
    }

    @Test("dotted keys and [a.b] headers build nested tables; a table implied by a deeper header may be defined later")
    func tables() throws {
        let root = try table("a.b = 1\n[x.y.z]\nk = 2\n[x]\nl = 3\n[x.y]\nm = 4\n[\"q r\" . s]\n")
        guard case .table(let a)? = root["a"], case .table(let x)? = root["x"], case .table(let y)? = x["y"],
            case .table(let z)? = y["z"], case .table(let q)? = root["q r"]
        else {
            Issue.record("tables missing: \(root.keys)")
            return
        }
        #expect(a["b"] == .integer(1))
        #expect(z["k"] == .integer(2))
        #expect(x["l"] == .integer(3))
        #expect(y["m"] == .integer(4))
        #expect(q.keys == ["s"])
        #expect(root.keys == ["a", "x", "q r"])
    }

    @Test("a dotted key may define a table a deeper header only implied, which no header may define after (as tomllib reads it)")
    func dottedKeyThroughImpliedTable() throws {
        let root = try table("[a.b.c]\nz = 9\n[a]\nb.d.e = 1\n")
        guard case .table(let a)? = root["a"], case .table(let b)? = a["b"], case .table(let d)? = b["d"] else {
            Issue.record("tables missing: \(root.keys)")
            return
        }
        #expect(b.keys == ["c", "d"])
        #expect(d["e"] == .integer(1))
        #expect(throws: TOMLSyntaxError.self) { try table("[a.b.c]\n[a]\nb.d = 1\n[a.b]\n") }
        #expect(throws: TOMLSyntaxError.self) { try table("[a.b.c]\n[a]\nb.c.t = 1\n") }
    }

    /// A text that is not TOML, and the exact error it must get.
    struct Bad: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { message }
    }

    static let bad: [Bad] = [
        Bad(text: "[uplink]\nbatch_size = 100\nbatch_size = 50\n", line: 3, column: 1, message: "key batch_size is defined twice"),
        Bad(text: "[uplink\n", line: 1, column: 8, message: "expected ] to close the table header, found the end of the line"),
        Bad(text: "[a]\n[a]\n", line: 2, column: 1, message: "table [a] is defined twice"),
        Bad(text: "a.b = 1\n[a.b]\n", line: 2, column: 1, message: "table [a.b] names a key that already has a value"),
        Bad(text: "a.b.c = 1\n[a.b]\n", line: 2, column: 1, message: "table [a.b] is defined twice"),
        Bad(text: "[a.b]\n[a]\nb.c = 1\n", line: 3, column: 1, message: "key b.c extends b, a table defined elsewhere by its [header]"),
        Bad(text: "a = { b = 1 }\na.c = 2\n", line: 2, column: 1, message: "key a.c extends a, an inline table, which is closed"),
        Bad(text: "a = 1\na.b = 2\n", line: 2, column: 1, message: "key a.b goes through a, which already has a value, not a table"),
        Bad(
            text: "a = [1]\n[[a]]\n", line: 2, column: 1,
            message: "array of tables [[a]] names a key that already has a value; only arrays made by [[…]] can be added to"),
        Bad(text: "a = [{}]\n[a.b]\n", line: 2, column: 1, message: "table [a.b] extends a, an array written as a value, which is closed"),
        Bad(text: "[[a]]\n[a]\n", line: 2, column: 1, message: "table [a] is already an array of tables, [[a]]"),
        Bad(text: "[a]\n[[a]]\n", line: 2, column: 1, message: "array of tables [[a]] names a table, not an array of tables"),
        Bad(text: "[[a]]\nb.c = 1\n[a.b]\n", line: 3, column: 1, message: "table [a.b] is defined twice"),
        Bad(text: "[q]\nname = box\n", line: 2, column: 8, message: "box is not a TOML value; a string needs quotes (\"box\"), a boolean is true or false"),
        Bad(text: "[q]\nn = 007\n", line: 2, column: 5, message: "007 is not a TOML value; a string needs quotes (\"007\"), a boolean is true or false"),
        Bad(text: "[q]\nn = 1__0\n", line: 2, column: 5, message: "1__0 is not a TOML value; a string needs quotes (\"1__0\"), a boolean is true or false"),
        Bad(
            text: "[q]\nn = 9223372036854775808\n", line: 2, column: 5,
            message: "9223372036854775808 is outside the integers TOML allows (64-bit, from -9223372036854775808 to 9223372036854775807)"),
        Bad(text: "[q]\nn =\n", line: 2, column: 4, message: "expected a value after =, found the end of the line"),
        Bad(text: "[q]\nn = 1 2\n", line: 2, column: 7, message: "expected the end of the line, found '2'"),
        Bad(text: "[q]\ns = \"open\n", line: 2, column: 10, message: "the string is not closed before the end of the line"),
        Bad(
            text: "[q]\ns = \"bad \\x escape\"\n", line: 2, column: 10,
            message: "unknown escape \\x; the escapes are \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX"),
        Bad(text: "[q]\ns = \"\\uD800\"\n", line: 2, column: 6, message: "\\u must be followed by 4 hex digits of a Unicode scalar value"),
        Bad(
            text: "s = \"abc\\\ndef\"\n", line: 1, column: 9,
            message: "a backslash at the end of a line (or before spaces) continues only a multi-line string (\"\"\"…\"\"\")"),
        Bad(text: "d = 2023-02-29\n", line: 1, column: 5, message: "2023-02-29 is out of range: the day must be from 01 to 28 in that month"),
        Bad(text: "d = 2024-13-01T00:00:00\n", line: 1, column: 5, message: "2024-13-01T00:00:00 is out of range: the month must be from 01 to 12"),
        Bad(text: "t = 24:00:00\n", line: 1, column: 5, message: "24:00:00 is out of range: a time of day is from 00:00:00 to 23:59:60"),
        Bad(
            text: "d = 2024-01-01T00:00:00+24:00\n", line: 1, column: 5,
            message: "2024-01-01T00:00:00+24:00 is out of range: an offset is from -23:59 to +23:59"),
        Bad(
            text: "d = 1979-05-27T07:32\n", line: 1, column: 5,
            message: "1979-05-27T07:32 is not a TOML value; a string needs quotes (\"1979-05-27T07:32\"), a boolean is true or false"),
        Bad(text: "a = [1,,2]\n", line: 1, column: 8, message: "expected a value or ] in the array, found ','"),
        Bad(
            text: "\u{FEFF}a = 1\n\u{FEFF}b = 2\n", line: 2, column: 1,
            message: "expected a key (letters, digits, _ and -, or a quoted string), found U+FEFF"),
        Bad(text: "[q]\ns = \"bell \u{7}\"\n", line: 2, column: 11, message: "control character U+0007 in a string; write it as an escape such as \\u0007"),
        Bad(text: "# del \u{7F}\n", line: 1, column: 7, message: "control character U+007F in a comment"),
        Bad(text: "[q]\na = [1 2]\n", line: 2, column: 8, message: "expected , or ] in the array, found '2'"),
        Bad(
            text: "[q]\na = { b = 1,\n c = 2 }\n", line: 2, column: 13,
            message: "expected a key (letters, digits, _ and -, or a quoted string), found the end of the line"),
        Bad(text: "é = 1\n", line: 1, column: 1, message: "expected a key (letters, digits, _ and -, or a quoted string), found 'é'"),
        Bad(text: "a = 1\r\nb = 2\rc = 3\n", line: 2, column: 6, message: "expected the end of the line, found a carriage return without a line feed"),
        Bad(text: "s = '''unterminated\n", line: 2, column: 1, message: "the string is not closed: a ' is missing"),
    ]

    @Test("text that is not TOML gets the line, column and what is wrong", arguments: bad)
    func refused(_ bad: Bad) {
        let error = #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse(bad.text) }
        #expect(error.map { "\($0.line):\($0.column): \($0.message)" } == "\(bad.line):\(bad.column): \(bad.message)")
    }

    @Test(
        "bytes that are not UTF-8 are refused at the first bad one, overlong forms and surrogates included",
        arguments: [
            [0x61, 0x20, 0x3D, 0x20, 0x22, 0xFF, 0x22], [0x23, 0x20, 0xC0, 0xAF], [0x61, 0x3D, 0x22, 0xED, 0xA0, 0x80, 0x22],
        ])
    func notUTF8(_ bytes: [UInt8]) {
        let error = #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse(utf8: [0x0A] + bytes) }
        #expect(error?.line == 2)
        #expect(error?.message.hasPrefix("the file is not UTF-8 text: byte 0x") == true)
    }

    @Test("an empty file, and one of comments and blank lines with CRLF endings, hold no keys; a byte order mark may open a file")
    func acceptsEmptyAndComments() throws {
        #expect(try table("").keys.isEmpty)
        #expect(try table("# only a comment\r\n\n   \t\n").keys.isEmpty)
        #expect(try table("\u{FEFF}a = 1\n")["a"] == .integer(1))
    }
}
