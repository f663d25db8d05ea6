/// TOML's rules for where a key or table may be defined (TOML 1.0, "Table" and "Keys"): a key
/// once, a table by one header, tables made by dotted keys never reopened by a header, inline
/// tables closed.
extension TOMLParser {
    /// Defines the table of a `[path]` header. `named` is the error to raise, with a reason added.
    static func defineTable(_ path: [String], in root: inout TOMLTable, error named: TOMLSyntaxError) throws(TOMLSyntaxError) {
        try enter(path.dropLast(), of: &root, creating: .implicit, error: named) { table throws(TOMLSyntaxError) in
            let name = path[path.count - 1]
            switch table[name] {
            case nil:
                table.set(name, .table(TOMLTable(origin: .header)))
            case .table(var existing) where existing.origin == .implicit:
                existing.origin = .header
                table.set(name, .table(existing))
            case .table:
                throw named.because("is defined twice")
            default:
                throw named.because("names a key that already has a value")
            }
        }
    }

    /// Sets `path = value` (a dotted key creates its tables) in the table at `prefix`.
    static func assign(
        _ value: TOMLValue, to path: [String], under prefix: [String], in root: inout TOMLTable, error named: TOMLSyntaxError
    ) throws(TOMLSyntaxError) {
        try enter(prefix[...], of: &root, creating: .implicit, error: named) { table throws(TOMLSyntaxError) in
            try enter(path.dropLast(), of: &table, creating: .dottedKey, error: named, only: .dottedKey) { inner throws(TOMLSyntaxError) in
                let name = path[path.count - 1]
                guard inner[name] == nil else { throw named.because("is defined twice") }
                inner.set(name, value)
            }
        }
    }

    /// Runs `body` on the table at `path` below `table`, creating missing tables with
    /// `origin`. An existing table is entered only if it is not inline and, when `only` is
    /// given, has that origin.
    private static func enter(
        _ path: ArraySlice<String>, of table: inout TOMLTable, creating origin: TOMLTable.Origin,
        error named: TOMLSyntaxError, only: TOMLTable.Origin? = nil,
        _ body: (inout TOMLTable) throws(TOMLSyntaxError) -> Void
    ) throws(TOMLSyntaxError) {
        guard let name = path.first else { return try body(&table) }
        var inner: TOMLTable
        switch table[name] {
        case nil:
            inner = TOMLTable(origin: origin)
        case .table(let existing) where existing.origin == .inline:
            throw named.because("extends \(name), an inline table, which is closed")
        case .table(let existing) where only == nil || existing.origin == only:
            inner = existing
        case .table:
            throw named.because("extends \(name), a table defined elsewhere by its [header]")
        default:
            throw named.because("goes through \(name), which already has a value, not a table")
        }
        try enter(path.dropFirst(), of: &inner, creating: origin, error: named, only: only, body)
        table.set(name, .table(inner))
    }
}
