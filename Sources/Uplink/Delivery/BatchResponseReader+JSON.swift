/// JSON's grammar (RFC 8259) for `BatchResponseReader`: values checked byte by byte, and only
/// the strings the reader keeps built.
extension BatchResponseReader {

    /// Reads one object: `read` gets the index in `fields` of each member it knows, positioned
    /// at the member's value, and reads that value; every other member is checked and skipped.
    /// A known field given twice makes the reply unreadable. Returns the fields seen, as bits.
    @discardableResult
    mutating func object(
        _ fields: [String], _ read: (inout Self, Int) throws(Malformed) -> Void
    ) throws(Malformed) -> UInt32 {
        var seen: UInt32 = 0
        try beginObject()
        var started = false
        while let key = try nextMember(&started) {
            guard let field = fields.firstIndex(of: key) else {
                try skipValue()
                continue
            }
            guard seen & 1 << field == 0 else { throw Malformed() }
            seen |= 1 << field
            try read(&self, field)
        }
        return seen
    }

    mutating func beginObject() throws(Malformed) { try begin(UInt8(ascii: "{")) }
    mutating func beginArray() throws(Malformed) { try begin(UInt8(ascii: "[")) }

    private mutating func begin(_ bracket: UInt8) throws(Malformed) {
        skipWhitespace()
        guard peek() == bracket, depth < Self.maximumDepth else { throw Malformed() }
        index += 1
        depth += 1
    }

    /// The next member's key, positioned at its value; nil at the object's end.
    mutating func nextMember(_ started: inout Bool) throws(Malformed) -> String? {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return nil
        }
        if started { try expect(UInt8(ascii: ",")) }
        started = true
        skipWhitespace()
        let key = try string()
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        skipWhitespace()
        return key
    }

    /// True when another element follows, positioned at it; false at the array's end.
    mutating func nextElement(_ started: inout Bool) throws(Malformed) -> Bool {
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return false
        }
        if started { try expect(UInt8(ascii: ",")) }
        started = true
        skipWhitespace()
        return true
    }

    mutating func skipValue() throws(Malformed) {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "{"):
            try beginObject()
            var started = false
            while try nextMember(&started) != nil { try skipValue() }
        case UInt8(ascii: "["):
            try beginArray()
            var started = false
            while try nextElement(&started) { try skipValue() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try number()
        }
    }

    mutating func optionalString() throws(Malformed) -> String? {
        try null() ? nil : string()
    }

    /// Consumes `null` if it comes next.
    mutating func null() throws(Malformed) -> Bool {
        skipWhitespace()
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ word: StaticString) throws(Malformed) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw Malformed() }
        for offset in 0 ..< count where bytes[index + offset] != word.utf8Start[offset] { throw Malformed() }
        index += count
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func number() throws(Malformed) {
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits()
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
    }

    private mutating func digits() throws(Malformed) {
        let start = index
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        guard index > start else { throw Malformed() }
    }

    /// A string, unescaped; it must be valid UTF-8 without control characters, and a `\u`
    /// escape of a UTF-16 surrogate must be one of a pair.
    mutating func string() throws(Malformed) -> String {
        skipWhitespace()
        try expect(UInt8(ascii: "\""))
        let start = index
        var plain = true
        while true {
            guard let byte = peek() else { throw Malformed() }
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20 else { throw Malformed() }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 { plain = false }
            index += byte == UInt8(ascii: "\\") ? 2 : 1
        }
        guard index < bytes.count else { throw Malformed() }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start ..< index])
        index += 1
        if plain { return String(decoding: raw, as: UTF8.self) }
        return try Self.unescape(raw)
    }

    private static func unescape(_ raw: UnsafeRawBufferPointer) throws(Malformed) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                continue
            }
            let escape = raw[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(raw, &index)
                if (0xD800 ..< 0xDC00).contains(scalar) {
                    guard raw.count - index >= 6, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u")
                    else { throw Malformed() }
                    index += 2
                    let low = try hex4(raw, &index)
                    guard (0xDC00 ..< 0xE000).contains(low) else { throw Malformed() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00 ..< 0xE000).contains(scalar) {
                    throw Malformed()
                }
                guard let unicode = Unicode.Scalar(scalar), let encoded = UTF8.encode(unicode) else { throw Malformed() }
                utf8.append(contentsOf: encoded)
            default: throw Malformed()
            }
        }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw Malformed() }
        return text
    }

    private static func hex4(_ raw: UnsafeRawBufferPointer, _ index: inout Int) throws(Malformed) -> UInt32 {
        guard raw.count - index >= 4 else { throw Malformed() }
        var value: UInt32 = 0
        for _ in 0 ..< 4 {
            let byte = raw[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Malformed()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func expect(_ byte: UInt8) throws(Malformed) {
        guard peek() == byte else { throw Malformed() }
        index += 1
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }
}
