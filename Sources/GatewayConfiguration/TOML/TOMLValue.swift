/// A value read from a TOML 1.0 document.
///
/// Every TOML type is kept as a value, not only the strings, integers and booleans the
/// configuration's keys take: the reader is checked value by value against the toml-test
/// corpus, and the configuration names the other types in its messages ("interval_s = 1.5 is a
/// floating-point number").
enum TOMLValue: Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case dateTime(TOMLDateTime)
    /// An array, or an array of tables (`[[name]]`), whose elements are all `.table`.
    case array([TOMLValue])
    case table(TOMLTable)

    /// Equal values, two NaNs included: a document read twice must compare equal to itself.
    static func == (left: TOMLValue, right: TOMLValue) -> Bool {
        switch (left, right) {
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.float(let a), .float(let b)): a == b || a.isNaN && b.isNaN
        case (.boolean(let a), .boolean(let b)): a == b
        case (.dateTime(let a), .dateTime(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.table(let a), .table(let b)): a == b
        default: false
        }
    }
}

/// An offset date-time, a local date-time, a local date or a local time (TOML 1.0 §Offset
/// Date-Time to §Local Time), as written: the offset is kept, not applied.
struct TOMLDateTime: Equatable, CustomStringConvertible {
    /// A day of the proleptic Gregorian calendar, checked against the length of its month.
    struct LocalDate: Equatable {
        let year: Int
        let month: Int
        let day: Int
    }

    /// A time of day; `second` may be 60 (a leap second, as RFC 3339 allows).
    struct LocalTime: Equatable {
        let hour: Int
        let minute: Int
        let second: Int
        /// The fraction of the second; digits past the ninth are dropped, as TOML 1.0 asks
        /// ("truncated, not rounded").
        let nanosecond: Int
    }

    let date: LocalDate?
    let time: LocalTime?
    /// Minutes east of UTC (`Z` is 0); nil for the three local kinds.
    let offset: Int?

    /// TOML's name for the kind, with its article, for "is a local date, not a string".
    var kind: String {
        switch (date, time, offset) {
        case (.some, .some, .some): "an offset date-time"
        case (.some, .some, nil): "a local date-time"
        case (.some, nil, _): "a local date"
        default: "a local time"
        }
    }

    /// The RFC 3339 text, as TOML writes it (`1979-05-27T07:32:00.5-08:00`).
    var description: String {
        var text = ""
        if let date {
            text += Self.digits(date.year, 4) + "-" + Self.digits(date.month, 2) + "-" + Self.digits(date.day, 2)
        }
        if let time {
            if date != nil { text += "T" }
            text += Self.digits(time.hour, 2) + ":" + Self.digits(time.minute, 2) + ":" + Self.digits(time.second, 2)
            if time.nanosecond > 0 {
                var fraction = Self.digits(time.nanosecond, 9)
                while fraction.last == "0" { fraction.removeLast() }
                text += "." + fraction
            }
        }
        if let offset {
            text += offset == 0 ? "Z" : (offset < 0 ? "-" : "+") + Self.digits(abs(offset) / 60, 2) + ":" + Self.digits(abs(offset) % 60, 2)
        }
        return text
    }

    /// `value` in at least `count` digits, zeros in front.
    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
}

/// A TOML table: its keys in the order they were written, each found in constant time.
struct TOMLTable: Equatable {
    /// The keys, in file order.
    private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    /// An empty table.
    init() {}

    /// The value of `key`, if the table has it.
    subscript(key: String) -> TOMLValue? {
        values[key]
    }

    /// Adds `key`, which the table must not have yet (the reader checks).
    mutating func append(_ key: String, _ value: TOMLValue) {
        keys.append(key)
        values[key] = value
    }
}
