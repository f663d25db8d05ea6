import OutputFormats
/// The unquoted values: booleans, integers (decimal, 0x, 0o, 0b, with `_` between digits),
/// floats, and offset or local dates, times and date-times.
extension TOMLParser {
    /// The unquoted value at the read position.
    mutating func scalar() throws(TOMLSyntaxError) -> TOMLValue {
        let start = index
        while let byte = peek(), Self.isScalarByte(byte) { index += 1 }
        // A date and a time may be separated by one space (1979-05-27 07:32:00).
        if peek() == UInt8(ascii: " "), let next = peek(1), Self.isDigit(next) {
            var cursor = start
            if Self.matches(bytes, &cursor, "dddd-dd-dd"), cursor == index {
                index += 1
                while let byte = peek(), Self.isScalarByte(byte) { index += 1 }
            }
        }
        let token = Array(bytes[start ..< index])
        let text = String(decoding: token, as: UTF8.self)
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        if let moment = try dateTime(token, at: start) { return .dateTime(moment) }
        if let integer = Self.integer(token) {
            guard let value = integer else {
                throw error(
                    "\(Echo.cut(text)) is outside the integers TOML allows (64-bit, from -9223372036854775808 to 9223372036854775807)", at: start)
            }
            return .integer(value)
        }
        if Self.isFloat(token), let value = Double(String(decoding: token.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)) {
            return .float(value)
        }
        if token.isEmpty {
            throw error("expected a value after =, found \(found())")
        }
        let quoted = Echo.cut(text)
        throw error("\(quoted) is not a TOML value; a string needs quotes (\"\(quoted)\"), a boolean is true or false", at: start)
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

    /// An RFC 3339 date, time or date-time as TOML 1.0 allows it (§Offset Date-Time and after),
    /// or nil if `token` does not have the shape of one. One that has the shape but not a real
    /// day or time (February 30th, 24:00) is an error, not text to try as another type.
    private func dateTime(_ token: [UInt8], at start: Int) throws(TOMLSyntaxError) -> TOMLDateTime? {
        var cursor = 0
        var fields: [Int] = []
        var date: TOMLDateTime.LocalDate?
        if Self.matches(token, &cursor, "dddd-dd-dd", into: &fields) {
            date = TOMLDateTime.LocalDate(year: fields[0], month: fields[1], day: fields[2])
            guard cursor < token.count else { return try checked(TOMLDateTime(date: date, time: nil, offset: nil), token, at: start) }
            guard token[cursor] | 0x20 == UInt8(ascii: "t") || token[cursor] == UInt8(ascii: " ") else { return nil }
            cursor += 1
        }
        guard let time = Self.time(token, &cursor) else { return nil }
        var offset: Int?
        if date != nil, cursor < token.count {
            var offsetFields: [Int] = []
            if token[cursor] | 0x20 == UInt8(ascii: "z") {
                cursor += 1
                offset = 0
            } else if token[cursor] == UInt8(ascii: "+") || token[cursor] == UInt8(ascii: "-") {
                let sign = token[cursor] == UInt8(ascii: "-") ? -1 : 1
                cursor += 1
                guard Self.matches(token, &cursor, "dd:dd", into: &offsetFields) else { return nil }
                guard offsetFields[0] <= 23, offsetFields[1] <= 59 else {
                    throw error("\(Echo.cut(String(decoding: token, as: UTF8.self))) is out of range: an offset is from -23:59 to +23:59", at: start)
                }
                offset = sign * (offsetFields[0] * 60 + offsetFields[1])
            }
        }
        guard cursor == token.count else { return nil }
        return try checked(TOMLDateTime(date: date, time: time, offset: offset), token, at: start)
    }

    /// `moment` if its date is a day of the calendar and its time a time of day.
    private func checked(_ moment: TOMLDateTime, _ token: [UInt8], at start: Int) throws(TOMLSyntaxError) -> TOMLDateTime {
        let problem: String? =
            if let date = moment.date, !(1 ... 12).contains(date.month) {
                "the month must be from 01 to 12"
            } else if let date = moment.date, !(1 ... Self.days(inMonth: date.month, of: date.year)).contains(date.day) {
                "the day must be from 01 to \(Self.days(inMonth: date.month, of: date.year)) in that month"
            } else if let time = moment.time, time.hour > 23 || time.minute > 59 || time.second > 60 {
                "a time of day is from 00:00:00 to 23:59:60"
            } else {
                nil
            }
        guard let problem else { return moment }
        throw error("\(Echo.cut(String(decoding: token, as: UTF8.self))) is out of range: \(problem)", at: start)
    }

    /// The days of `month` (1 to 12) in the proleptic Gregorian calendar.
    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `HH:MM:SS` with an optional fraction, nil if not there.
    private static func time(_ token: [UInt8], _ cursor: inout Int) -> TOMLDateTime.LocalTime? {
        var fields: [Int] = []
        guard matches(token, &cursor, "dd:dd:dd", into: &fields) else { return nil }
        var nanosecond = 0
        if cursor < token.count, token[cursor] == UInt8(ascii: ".") {
            cursor += 1
            let digits = cursor
            var scale = 100_000_000
            while cursor < token.count, isDigit(token[cursor]) {
                nanosecond += Int(token[cursor] - UInt8(ascii: "0")) * scale
                scale /= 10
                cursor += 1
            }
            guard cursor > digits else { return nil }
        }
        return TOMLDateTime.LocalTime(hour: fields[0], minute: fields[1], second: fields[2], nanosecond: nanosecond)
    }

    /// `pattern` at the cursor, `d` standing for any digit; each run of digits is added to
    /// `fields` as a number.
    private static func matches(_ token: [UInt8], _ cursor: inout Int, _ pattern: StaticString, into fields: inout [Int]) -> Bool {
        var field: Int?
        var offset = cursor
        for wanted in pattern.withUTF8Buffer({ Array($0) }) {
            guard offset < token.count else { return false }
            let byte = token[offset]
            if wanted == UInt8(ascii: "d") {
                guard isDigit(byte) else { return false }
                field = (field ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
            } else {
                guard byte == wanted else { return false }
                if let done = field { fields.append(done) }
                field = nil
            }
            offset += 1
        }
        if let done = field { fields.append(done) }
        cursor = offset
        return true
    }

    /// `pattern` at the cursor, `d` standing for any digit.
    private static func matches(_ token: [UInt8], _ cursor: inout Int, _ pattern: StaticString) -> Bool {
        var fields: [Int] = []
        return matches(token, &cursor, pattern, into: &fields)
    }

    private static func isScalarByte(_ byte: UInt8) -> Bool {
        isBareKey(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
