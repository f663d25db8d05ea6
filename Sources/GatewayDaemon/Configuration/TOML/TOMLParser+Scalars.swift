/// The unquoted values: booleans, integers (decimal, 0x, 0o, 0b, with `_` between digits),
/// floats, and offset or local dates, times and date-times.
extension TOMLParser {
    /// The unquoted value at the read position.
    mutating func scalar() throws(TOMLSyntaxError) -> TOMLValue {
        let start = index
        while let byte = peek(), Self.isScalarByte(byte) { index += 1 }
        // A date and a time may be separated by one space (1979-05-27 07:32:00).
        if index - start == 10, peek() == UInt8(ascii: " "), let next = peek(1), Self.isDigit(next) {
            index += 1
            while let byte = peek(), Self.isScalarByte(byte) { index += 1 }
        }
        let token = Array(bytes[start ..< index])
        let text = String(decoding: token, as: UTF8.self)
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf", "-inf", "nan", "+nan", "-nan": return .other(text: text, kind: .float)
        default: break
        }
        if let kind = Self.dateTimeKind(token) { return .other(text: text, kind: kind) }
        if let integer = Self.integer(token) {
            guard let value = integer else {
                throw error("\(text) is outside the integers TOML allows (64-bit, from -9223372036854775808 to 9223372036854775807)", at: start)
            }
            return .integer(value)
        }
        if Self.isFloat(token) { return .other(text: text, kind: .float) }
        if token.isEmpty {
            throw error("expected a value after =, found \(found())")
        }
        throw error("\(text) is not a TOML value; a string needs quotes (\"\(text)\"), a boolean is true or false", at: start)
    }

    /// nil if `token` is not an integer; `.some(nil)` if it is one but does not fit 64 bits.
    private static func integer(_ token: [UInt8]) -> Int?? {
        if token.count > 2, token[0] == UInt8(ascii: "0") {
            let radix: Int? =
                switch token[1] {
                case UInt8(ascii: "x"): 16
                case UInt8(ascii: "o"): 8
                case UInt8(ascii: "b"): 2
                default: nil
                }
            if let radix {
                var cursor = 2
                guard digitGroups(token, &cursor, { Int(hexValue($0) ?? 99) < radix }), cursor == token.count else { return nil }
                return .some(Int(String(decoding: token[2...].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self), radix: radix))
            }
        }
        var cursor = 0
        guard decimalInteger(token, &cursor), cursor == token.count else { return nil }
        return .some(Int(String(decoding: token.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)))
    }

    /// `[+-]` then `0` or a digit group without a leading zero.
    private static func decimalInteger(_ token: [UInt8], _ cursor: inout Int) -> Bool {
        if cursor < token.count, token[cursor] == UInt8(ascii: "+") || token[cursor] == UInt8(ascii: "-") { cursor += 1 }
        if cursor < token.count, token[cursor] == UInt8(ascii: "0") {
            cursor += 1
            return cursor == token.count || !isDigit(token[cursor]) && token[cursor] != UInt8(ascii: "_")
        }
        return digitGroups(token, &cursor, isDigit)
    }

    /// An integer part, then a fraction, an exponent, or both.
    private static func isFloat(_ token: [UInt8]) -> Bool {
        var cursor = 0
        guard decimalInteger(token, &cursor) else { return false }
        var sawPart = false
        if cursor < token.count, token[cursor] == UInt8(ascii: ".") {
            cursor += 1
            guard digitGroups(token, &cursor, isDigit) else { return false }
            sawPart = true
        }
        if cursor < token.count, token[cursor] | 0x20 == UInt8(ascii: "e") {
            cursor += 1
            if cursor < token.count, token[cursor] == UInt8(ascii: "+") || token[cursor] == UInt8(ascii: "-") { cursor += 1 }
            guard digitGroups(token, &cursor, isDigit) else { return false }
            sawPart = true
        }
        return sawPart && cursor == token.count
    }

    /// One or more digits, `_` allowed only between two of them.
    private static func digitGroups(_ token: [UInt8], _ cursor: inout Int, _ isDigit: (UInt8) -> Bool) -> Bool {
        guard cursor < token.count, isDigit(token[cursor]) else { return false }
        cursor += 1
        while cursor < token.count {
            if isDigit(token[cursor]) {
                cursor += 1
            } else if token[cursor] == UInt8(ascii: "_"), cursor + 1 < token.count, isDigit(token[cursor + 1]) {
                cursor += 2
            } else {
                break
            }
        }
        return true
    }

    /// The kind of an RFC 3339 date, time or date-time (TOML 1.0 §Offset Date-Time and after).
    private static func dateTimeKind(_ token: [UInt8]) -> TOMLValue.OtherKind? {
        var cursor = 0
        if matches(token, &cursor, "dddd-dd-dd") {
            if cursor == token.count { return .date }
            guard [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(token[cursor]) else { return nil }
            cursor += 1
            guard time(token, &cursor) else { return nil }
            if cursor < token.count, token[cursor] | 0x20 == UInt8(ascii: "z") {
                cursor += 1
            } else if cursor < token.count, token[cursor] == UInt8(ascii: "+") || token[cursor] == UInt8(ascii: "-") {
                cursor += 1
                guard matches(token, &cursor, "dd:dd") else { return nil }
            }
            return cursor == token.count ? .dateTime : nil
        }
        cursor = 0
        return time(token, &cursor) && cursor == token.count ? .time : nil
    }

    /// `HH:MM:SS` with an optional fraction.
    private static func time(_ token: [UInt8], _ cursor: inout Int) -> Bool {
        guard matches(token, &cursor, "dd:dd:dd") else { return false }
        if cursor < token.count, token[cursor] == UInt8(ascii: ".") {
            cursor += 1
            let digits = cursor
            while cursor < token.count, isDigit(token[cursor]) { cursor += 1 }
            return cursor > digits
        }
        return true
    }

    /// `pattern` at the cursor, `d` standing for any digit.
    private static func matches(_ token: [UInt8], _ cursor: inout Int, _ pattern: StaticString) -> Bool {
        let expected = pattern.withUTF8Buffer { Array($0) }
        guard token.count - cursor >= expected.count else { return false }
        for (offset, wanted) in expected.enumerated() {
            let byte = token[cursor + offset]
            guard wanted == UInt8(ascii: "d") ? isDigit(byte) : byte == wanted else { return false }
        }
        cursor += expected.count
        return true
    }

    private static func isScalarByte(_ byte: UInt8) -> Bool {
        isBareKey(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
