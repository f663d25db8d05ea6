import OutputFormats
/// A strict TOML 1.0 reader for `gateway.toml`.
///
/// Written for the gateway instead of linking a general TOML library: the one it used wraps
/// toml++ (C++) and full Foundation, several megabytes of the shipped binary for a file of
/// twenty keys. Every TOML 1.0 construct is read and checked (strings of all four kinds,
/// integers in every base, floats, dates and times against the calendar, arrays, inline
/// tables, dotted keys, arrays of tables, the rules against defining a key or table twice); the
/// toml-test corpus checks it (`TOMLConformanceTests`).
///
/// A file is untrusted input, so the reader is bounded: tables and arrays nest at most
/// ``maximumDepth`` deep (the reader recurses into arrays and inline tables, and a deeper file
/// would overflow the stack), its time grows with the file's length alone (tables are filled
/// through references, keys found by hashing), and a message quotes at most 80 characters of
/// the text. Values and tables are built here; the rules on tables in
/// `TOMLParser+Tables.swift`, strings in `TOMLParser+Strings.swift`, the rest in
/// `TOMLParser+Scalars.swift`.
struct TOMLParser {
    /// How deep tables and arrays may sit inside one another, counting every header part,
    /// dotted-key part, array and inline table: far more than a configuration needs, far less
    /// than what would exhaust a thread's stack.
    static let maximumDepth = 64

    /// The document as UTF-8.
    let bytes: [UInt8]
    /// The next byte to read.
    var index = 0

    /// The top-level table of `text`, or the first syntax error in it.
    static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLTable {
        try parse(utf8: Array(text.utf8))
    }

    /// The top-level table of a document given as bytes, which TOML requires to be UTF-8.
    static func parse(utf8 bytes: [UInt8]) throws(TOMLSyntaxError) -> TOMLTable {
        var parser = TOMLParser(bytes: bytes)
        try parser.checkUTF8()
        return try parser.document()
    }

    /// Refuses bytes that are not UTF-8 (overlong forms and surrogates included), naming the
    /// first bad one, so every later step can decode text without replacing anything.
    private func checkUTF8() throws(TOMLSyntaxError) {
        var decoder = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return
            case .error: throw error("the file is not UTF-8 text: byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) is not valid here", at: offset)
            }
        }
    }

    private mutating func document() throws(TOMLSyntaxError) -> TOMLTable {
        // A byte order mark may open the file (TOML 1.0 §Spec); anywhere else it is text.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        let root = TOMLTableBuilder(origin: .header, depth: 0)
        var current = root
        while true {
            skipWhitespace()
            guard let byte = peek() else { return root.table() }
            switch byte {
            case UInt8(ascii: "#"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                break
            case UInt8(ascii: "["):
                current = try header(in: root)
            default:
                try keyValue(into: current)
            }
            try endOfLine()
        }
    }

    /// A `[table]` or `[[array of tables]]` header: the table the keys below it go into.
    private mutating func header(in root: TOMLTableBuilder) throws(TOMLSyntaxError) -> TOMLTableBuilder {
        let start = index
        let isArray = peek(1) == UInt8(ascii: "[")
        index += isArray ? 2 : 1
        skipWhitespace()
        let path = try key()
        skipWhitespace()
        try expect("]", "to close the table header")
        if isArray {
            try expect("]", "to close the header of an array of tables ([[…]])")
            return try appendTable(path, in: root, at: start)
        }
        return try defineTable(path, in: root, at: start)
    }

    /// `key = value`, set in `table`.
    mutating func keyValue(into table: TOMLTableBuilder) throws(TOMLSyntaxError) {
        let start = index
        let path = try key()
        skipWhitespace()
        try expect("=", "after the key \(Self.name(path))")
        skipWhitespace()
        let parent = try tableForKey(path, in: table, at: start)
        let value = try value(depth: parent.depth + 1)
        parent.set(path[path.count - 1], .value(value))
    }

    /// Any TOML value; `depth` is where it sits, for the bound on nesting.
    private mutating func value(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        switch peek() {
        case UInt8(ascii: "\""): return .string(try basicString())
        case UInt8(ascii: "'"): return .string(try literalString())
        case UInt8(ascii: "["):
            try checkDepth(depth, at: index)
            return .array(try array(depth: depth))
        case UInt8(ascii: "{"):
            try checkDepth(depth, at: index)
            return .table(try inlineTable(depth: depth))
        case nil, UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"):
            throw error("expected a value after =, found \(found())")
        default: return try scalar()
        }
    }

    /// `[ … ]`: values separated by commas, a trailing comma, line breaks and comments allowed.
    private mutating func array(depth: Int) throws(TOMLSyntaxError) -> [TOMLValue] {
        index += 1
        var elements: [TOMLValue] = []
        while true {
            try skipBlankLines()
            switch peek() {
            case UInt8(ascii: "]"):
                index += 1
                return elements
            case nil, UInt8(ascii: ","):
                throw error("expected a value or ] in the array, found \(found())")
            default:
                elements.append(try value(depth: depth + 1))
            }
            try skipBlankLines()
            if peek() == UInt8(ascii: ",") {
                index += 1
            } else if peek() != UInt8(ascii: "]") {
                throw error("expected , or ] in the array, found \(found())")
            }
        }
    }

    /// `{ key = value, … }` on one line, without a trailing comma (TOML 1.0): closed to any
    /// key outside the braces.
    private mutating func inlineTable(depth: Int) throws(TOMLSyntaxError) -> TOMLTable {
        index += 1
        let table = TOMLTableBuilder(origin: .inline, depth: depth)
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return table.table()
        }
        while true {
            skipWhitespace()
            try keyValue(into: table)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return table.table()
            default: throw error("expected , or } in the inline table (it must fit on one line), found \(found())")
            }
        }
    }

    /// A key: bare or quoted parts joined by dots, on one line.
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

    /// Throws unless a table or array at `depth` is within ``maximumDepth``.
    func checkDepth(_ depth: Int, at offset: Int) throws(TOMLSyntaxError) {
        guard depth <= Self.maximumDepth else {
            throw error("nesting deeper than \(Self.maximumDepth) levels (tables and arrays inside one another)", at: offset)
        }
    }

    mutating func skipWhitespace() {
        while peek() == UInt8(ascii: " ") || peek() == UInt8(ascii: "\t") { index += 1 }
    }

    /// Reads `character`; `purpose` is built only for the message.
    mutating func expect(_ character: Unicode.Scalar, _ purpose: @autoclosure () -> String) throws(TOMLSyntaxError) {
        guard peek() == UInt8(ascii: character) else { throw error("expected \(character) \(purpose()), found \(found())") }
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
        default:
            switch character(at: index) {
            case (let text, true): "'\(text)'"
            case (let code, false): code
            }
        }
    }

    /// The character at byte `offset` (one Unicode scalar) for a message: itself, or its code
    /// (`visible` false) if it cannot be seen: a control character, a space other than ASCII's,
    /// a byte order mark.
    func character(at offset: Int) -> (text: String, visible: Bool) {
        if Self.isControl(bytes[offset]) { return (Self.scalarName(bytes[offset]), false) }
        let text = String(decoding: bytes[offset ..< min(offset + 4, bytes.count)], as: UTF8.self)
        guard let scalar = text.unicodeScalars.first else { return ("", true) }
        if !scalar.isASCII, scalar.properties.isWhitespace || scalar.properties.generalCategory == .format {
            return (Self.scalarName(scalar.value), false)
        }
        return (String(scalar), true)
    }

    func error(_ message: String, at offset: Int? = nil) -> TOMLSyntaxError {
        TOMLSyntaxError(message, at: offset ?? index, in: bytes)
    }

    /// A key path as messages name it (`a.b.c`), cut short if long.
    static func name(_ path: [String]) -> String {
        Echo.cut(path.joined(separator: "."))
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

    static func scalarName(_ value: some BinaryInteger) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
