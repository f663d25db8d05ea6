/// A strict TOML 1.0 reader for `gateway.toml`.
///
/// Written for the gateway instead of linking a general TOML library: the one it used wraps
/// toml++ (C++) and full Foundation, several megabytes of the shipped binary for a file of
/// twenty keys. Every TOML 1.0 construct is recognised and checked (strings of all four kinds,
/// integers in every base, floats, dates and times, arrays, inline tables, dotted keys, the
/// rules against defining a key or table twice); arrays of tables are refused with a message,
/// as the configuration has none. Values and tables are built here; structure in
/// `TOMLParser+Tables.swift`, strings in `TOMLParser+Strings.swift`, the rest in
/// `TOMLParser+Scalars.swift`.
struct TOMLParser {
    /// The document as UTF-8.
    let bytes: [UInt8]
    /// The next byte to read.
    var index = 0

    /// The top-level table of `text`, or the first syntax error in it.
    static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLTable {
        var parser = TOMLParser(bytes: Array(text.utf8))
        return try parser.document()
    }

    private mutating func document() throws(TOMLSyntaxError) -> TOMLTable {
        var root = TOMLTable(origin: .header)
        var current: [String] = []
        while true {
            skipWhitespace()
            guard let byte = peek() else { return root }
            switch byte {
            case UInt8(ascii: "#"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                try endOfLine()
            case UInt8(ascii: "["):
                let start = index
                if peek(1) == UInt8(ascii: "[") {
                    throw error("arrays of tables ([[…]]) are valid TOML, but the configuration has none; write each section once, as [name]", at: start)
                }
                index += 1
                skipWhitespace()
                let path = try key()
                skipWhitespace()
                try expect("]", "to close the table header")
                try Self.defineTable(path, in: &root, error: error("table [\(path.joined(separator: "."))]", at: start))
                current = path
                try endOfLine()
            default:
                try keyValue(into: &root, under: current)
                try endOfLine()
            }
        }
    }

    /// `key = value`, set in the table at `prefix` of `table`.
    mutating func keyValue(into table: inout TOMLTable, under prefix: [String]) throws(TOMLSyntaxError) {
        let start = index
        let path = try key()
        skipWhitespace()
        try expect("=", "after the key \(path.joined(separator: "."))")
        skipWhitespace()
        let value = try value()
        try Self.assign(value, to: path, under: prefix, in: &table, error: error("key \(path.joined(separator: "."))", at: start))
    }

    /// Any TOML value.
    mutating func value() throws(TOMLSyntaxError) -> TOMLValue {
        switch peek() {
        case UInt8(ascii: "\""): .string(try basicString())
        case UInt8(ascii: "'"): .string(try literalString())
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "{"): .table(try inlineTable())
        case nil, UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"):
            throw error("expected a value after =, found \(found())")
        default: try scalar()
        }
    }

    private mutating func array() throws(TOMLSyntaxError) -> TOMLValue {
        let start = index
        index += 1
        while true {
            try skipBlankLines()
            if peek() == UInt8(ascii: "]") { break }
            _ = try value()
            try skipBlankLines()
            if peek() == UInt8(ascii: ",") {
                index += 1
            } else if peek() != UInt8(ascii: "]") {
                throw error("expected , or ] in the array, found \(found())")
            }
        }
        index += 1
        return .other(text: String(decoding: bytes[start ..< index], as: UTF8.self), kind: .array)
    }

    private mutating func inlineTable() throws(TOMLSyntaxError) -> TOMLTable {
        index += 1
        var table = TOMLTable(origin: .inline)
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return table
        }
        while true {
            skipWhitespace()
            try keyValue(into: &table, under: [])
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return table
            default: throw error("expected , or } in the inline table (it must fit on one line), found \(found())")
            }
        }
    }

    /// A key: bare or quoted parts joined by dots.
    private mutating func key() throws(TOMLSyntaxError) -> [String] {
        var parts: [String] = []
        while true {
            switch peek() {
            case UInt8(ascii: "\""):
                if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") { throw error("a key cannot be a multi-line string") }
                parts.append(try basicString())
            case UInt8(ascii: "'"):
                if peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") { throw error("a key cannot be a multi-line string") }
                parts.append(try literalString())
            default:
                let start = index
                while let byte = peek(), Self.isBareKey(byte) { index += 1 }
                guard index > start else { throw error("expected a key (letters, digits, _ and -, or a quoted string), found \(found())") }
                parts.append(String(decoding: bytes[start ..< index], as: UTF8.self))
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ".") else { return parts }
            index += 1
            skipWhitespace()
        }
    }

    /// Whitespace, then an optional comment, then a line break or the end of the text.
    private mutating func endOfLine() throws(TOMLSyntaxError) {
        skipWhitespace()
        if peek() == UInt8(ascii: "#") { try comment() }
        switch peek() {
        case nil: return
        case UInt8(ascii: "\n"): index += 1
        case UInt8(ascii: "\r") where peek(1) == UInt8(ascii: "\n"): index += 2
        default: throw error("expected the end of the line, found \(found())")
        }
    }

    /// Whitespace, comments and line breaks, as allowed between array elements.
    private mutating func skipBlankLines() throws(TOMLSyntaxError) {
        while true {
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: "#"): try comment()
            case UInt8(ascii: "\n"): index += 1
            case UInt8(ascii: "\r") where peek(1) == UInt8(ascii: "\n"): index += 2
            default: return
            }
        }
    }

    private mutating func comment() throws(TOMLSyntaxError) {
        while let byte = peek(), byte != UInt8(ascii: "\n") {
            if Self.isControl(byte), byte != UInt8(ascii: "\r") || peek(1) != UInt8(ascii: "\n") {
                throw error("control character \(Self.scalarName(byte)) in a comment")
            }
            index += 1
        }
    }

    mutating func skipWhitespace() {
        while peek() == UInt8(ascii: " ") || peek() == UInt8(ascii: "\t") { index += 1 }
    }

    mutating func expect(_ character: Unicode.Scalar, _ purpose: String) throws(TOMLSyntaxError) {
        guard peek() == UInt8(ascii: character) else { throw error("expected \(character) \(purpose), found \(found())") }
        index += 1
    }

    func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    /// What is at the read position, for "expected …, found …".
    func found() -> String {
        switch peek() {
        case nil: "the end of the file"
        case UInt8(ascii: "\r") where peek(1) != UInt8(ascii: "\n"): "a carriage return without a line feed"
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"): "the end of the line"
        case let byte? where Self.isControl(byte): Self.scalarName(byte)
        default:
            "'" + String(String(decoding: bytes[index ..< min(index + 4, bytes.count)], as: UTF8.self).prefix(1)) + "'"
        }
    }

    func error(_ message: String, at offset: Int? = nil) -> TOMLSyntaxError {
        TOMLSyntaxError(message, at: offset ?? index, in: bytes)
    }

    /// Letters, digits, `_` and `-`: the characters of a bare key.
    static func isBareKey(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "a") ... UInt8(ascii: "z"),
            UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// The control characters TOML allows only escaped (tab is allowed raw).
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }

    static func scalarName(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
