/// TOML's four kinds of string: basic (`"…"`, with escapes), literal (`'…'`, as written), and
/// their multi-line forms (`"""…"""`, `'''…'''`).
extension TOMLParser {
    /// A basic string, single- or multi-line, at the read position.
    mutating func basicString() throws(TOMLSyntaxError) -> String {
        let multiLine = startString(UInt8(ascii: "\""))
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error("the string is not closed: a \" is missing") }
            switch byte {
            case UInt8(ascii: "\""):
                if try endString(UInt8(ascii: "\""), multiLine: multiLine, into: &text) { return String(decoding: text, as: UTF8.self) }
            case UInt8(ascii: "\\"):
                try escape(into: &text, multiLine: multiLine)
            default:
                try character(byte, into: &text, multiLine: multiLine)
            }
        }
    }

    /// A literal string, single- or multi-line, at the read position.
    mutating func literalString() throws(TOMLSyntaxError) -> String {
        let multiLine = startString(UInt8(ascii: "'"))
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error("the string is not closed: a ' is missing") }
            if byte == UInt8(ascii: "'") {
                if try endString(UInt8(ascii: "'"), multiLine: multiLine, into: &text) { return String(decoding: text, as: UTF8.self) }
            } else {
                try character(byte, into: &text, multiLine: multiLine)
            }
        }
    }

    /// Reads the opening quote(s); a multi-line string drops a line break right after them.
    private mutating func startString(_ quote: UInt8) -> Bool {
        guard peek(1) == quote, peek(2) == quote else {
            index += 1
            return false
        }
        index += 3
        if peek() == UInt8(ascii: "\n") {
            index += 1
        } else if peek() == UInt8(ascii: "\r"), peek(1) == UInt8(ascii: "\n") {
            index += 2
        }
        return true
    }

    /// At a quote: true at the end of the string; otherwise the quote is text. A multi-line
    /// string may end with up to two quotes of its own before its closing three.
    private mutating func endString(_ quote: UInt8, multiLine: Bool, into text: inout [UInt8]) throws(TOMLSyntaxError) -> Bool {
        guard multiLine else {
            index += 1
            return true
        }
        var run = 0
        while peek(run) == quote { run += 1 }
        guard run >= 3 else {
            text += Array(repeating: quote, count: run)
            index += run
            return false
        }
        guard run <= 5 else { throw error("too many quotes in a row at the end of a multi-line string") }
        text += Array(repeating: quote, count: run - 3)
        index += run
        return true
    }

    /// One character of string text: line breaks only in multi-line strings, no raw controls.
    private mutating func character(_ byte: UInt8, into text: inout [UInt8], multiLine: Bool) throws(TOMLSyntaxError) {
        if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && peek(1) == UInt8(ascii: "\n")) {
            guard multiLine else { throw error("the string is not closed before the end of the line") }
            if byte == UInt8(ascii: "\r") { index += 1 }
            text.append(UInt8(ascii: "\n"))
        } else if Self.isControl(byte) {
            throw error("control character \(Self.scalarName(byte)) in a string; write it as an escape such as \\u\(Self.scalarName(byte).dropFirst(2))")
        } else {
            text.append(byte)
        }
        index += 1
    }

    /// A backslash escape of a basic string, or (multi-line) a line-ending backslash.
    private mutating func escape(into text: inout [UInt8], multiLine: Bool) throws(TOMLSyntaxError) {
        let start = index
        index += 1
        guard let letter = peek() else { throw error("the string is not closed: a \" is missing") }
        index += 1
        switch letter {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): text.append(letter)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = letter == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for offset in 0 ..< digits {
                guard let digit = peek(offset).flatMap(Self.hexValue) else {
                    throw error("\\\(Unicode.Scalar(letter)) must be followed by \(digits) hex digits of a Unicode scalar value", at: start)
                }
                value = value << 4 | UInt32(digit)
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw error("\\\(Unicode.Scalar(letter)) must be followed by \(digits) hex digits of a Unicode scalar value", at: start)
            }
            text += Array(String(scalar).utf8)
            index += digits
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            // `"abc\<line break>def"` is not TOML: only a multi-line string may be continued.
            guard multiLine else {
                throw error("a backslash at the end of a line (or before spaces) continues only a multi-line string (\"\"\"…\"\"\")", at: start)
            }
            index -= 1
            try trimAfterLineEndingBackslash(from: start)
        default:
            let escape = character(at: start + 1)
            throw error(
                "unknown escape \(escape.visible ? "\\" + escape.text : "\\ followed by " + escape.text); the escapes are \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX",
                at: start)
        }
    }

    /// A backslash, optional spaces, a line break: all whitespace up to the next text goes.
    private mutating func trimAfterLineEndingBackslash(from start: Int) throws(TOMLSyntaxError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\n") || (peek() == UInt8(ascii: "\r") && peek(1) == UInt8(ascii: "\n")) else {
            throw error("a backslash followed by spaces must end the line", at: start)
        }
        while let byte = peek(),
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || (byte == UInt8(ascii: "\r") && peek(1) == UInt8(ascii: "\n"))
        {
            index += 1
        }
    }
}
