/// A value read from a TOML 1.0 document.
///
/// Only strings, integers, booleans and tables are kept as values, because those are all the
/// configuration's keys take; every other TOML type is recognised and checked, then kept as the
/// text the operator wrote so a message can say "interval_s = 1.5 is a floating-point number".
enum TOMLValue: Equatable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case table(TOMLTable)
    /// A float, date, time, date-time or array, as written (trimmed).
    case other(text: String, kind: OtherKind)

    /// The TOML types the configuration has no key for.
    enum OtherKind: String, Equatable {
        case float = "a floating-point number"
        case array = "an array"
        case date = "a date"
        case time = "a time"
        case dateTime = "a date-time"
    }
}

/// A TOML table: its keys in the order they were written.
struct TOMLTable: Equatable {
    /// How the table came to be, for TOML's rules on defining a table twice.
    enum Origin: Equatable {
        /// Created on the way to a deeper `[a.b]` header: a later `[a]` may still define it.
        case implicit
        /// Defined by its own `[header]`.
        case header
        /// Created by a dotted key (`a.b = 1`).
        case dottedKey
        /// Written inline (`{ … }`): closed to any later key.
        case inline
    }

    /// The keys and their values, in file order.
    private(set) var entries: [(key: String, value: TOMLValue)] = []
    /// How the table was defined.
    var origin: Origin

    /// An empty table.
    init(origin: Origin) {
        self.origin = origin
    }

    /// The keys, in file order.
    var keys: [String] { entries.map(\.key) }

    /// The value of `key`, if the table has it.
    subscript(key: String) -> TOMLValue? {
        entries.first { $0.key == key }?.value
    }

    /// Sets `key`, which must be new or already hold a table (the caller checks which).
    mutating func set(_ key: String, _ value: TOMLValue) {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].value = value
        } else {
            entries.append((key, value))
        }
    }

    static func == (left: TOMLTable, right: TOMLTable) -> Bool {
        left.origin == right.origin && left.entries.elementsEqual(right.entries) { $0.key == $1.key && $0.value == $1.value }
    }
}
