import OutputFormats
/// TOML's rules for where a key or table may be defined (TOML 1.0, "Table", "Keys" and "Array
/// of Tables"): a key once, a table by one header, tables made by dotted keys never reopened by
/// a header, inline tables and arrays written as values closed, `[[name]]` adding a table to
/// its array and `[name.sub]` going into that array's last table.
extension TOMLParser {
    /// What a path names, for messages: `table [a.b]`, `array of tables [[a.b]]`, `key a.b`.
    private enum Role {
        case table, arrayOfTables, key

        func subject(_ path: [String]) -> String {
            switch self {
            case .table: "table [\(TOMLParser.name(path))]"
            case .arrayOfTables: "array of tables [[\(TOMLParser.name(path))]]"
            case .key: "key \(TOMLParser.name(path))"
            }
        }
    }

    /// The table a `[path]` header defines.
    func defineTable(_ path: [String], in root: TOMLTableBuilder, at start: Int) throws(TOMLSyntaxError) -> TOMLTableBuilder {
        let parent = try walk(path, in: root, role: .table, at: start)
        let name = path[path.count - 1]
        switch parent[name] {
        case nil:
            return try child(of: parent, name, origin: .header, at: start)
        case .table(let existing) where existing.origin == .implicit:
            existing.origin = .header
            return existing
        case .table:
            throw error("\(Role.table.subject(path)) is defined twice", at: start)
        case .tables:
            throw error("\(Role.table.subject(path)) is already an array of tables, [[\(TOMLParser.name(path))]]", at: start)
        case .value:
            throw error("\(Role.table.subject(path)) names a key that already has a value", at: start)
        }
    }

    /// The new last table of the array a `[[path]]` header adds to (or creates).
    func appendTable(_ path: [String], in root: TOMLTableBuilder, at start: Int) throws(TOMLSyntaxError) -> TOMLTableBuilder {
        let parent = try walk(path, in: root, role: .arrayOfTables, at: start)
        // The array is one level, its tables the next.
        try checkDepth(parent.depth + 2, at: start)
        let table = TOMLTableBuilder(origin: .header, depth: parent.depth + 2)
        let name = path[path.count - 1]
        switch parent[name] {
        case nil:
            parent.set(name, .tables(TOMLTableArray(table)))
        case .tables(let array):
            array.elements.append(table)
        case .table:
            throw error("\(Role.arrayOfTables.subject(path)) names a table, not an array of tables", at: start)
        case .value:
            throw error("\(Role.arrayOfTables.subject(path)) names a key that already has a value; only arrays made by [[…]] can be added to", at: start)
        }
        return table
    }

    /// The table a dotted key `path` (below `table`) puts its value in, its last part free.
    func tableForKey(_ path: [String], in table: TOMLTableBuilder, at start: Int) throws(TOMLSyntaxError) -> TOMLTableBuilder {
        let parent = try walk(path, in: table, role: .key, at: start)
        guard parent[path[path.count - 1]] == nil else { throw error("\(Role.key.subject(path)) is defined twice", at: start) }
        return parent
    }

    /// The table that holds the last part of `path`, going from `table` through (and creating)
    /// the tables named by the other parts. A header may go through any table not written
    /// inline, and into the last table of an array of tables; a dotted key only through
    /// tables that dotted keys made, or that a deeper header made on its way and none defined.
    private func walk(_ path: [String], in table: TOMLTableBuilder, role: Role, at start: Int) throws(TOMLSyntaxError) -> TOMLTableBuilder {
        var table = table
        for name in path.dropLast() {
            switch table[name] {
            case nil:
                table = try child(of: table, name, origin: role == .key ? .dottedKey : .implicit, at: start)
            case .table(let existing) where role != .key || existing.origin == .dottedKey:
                table = existing
            case .table(let existing) where existing.origin == .implicit:
                // Made on the way to a deeper header, never defined: the key defines it, and
                // no header may define it after (as tomllib and the other readers do).
                existing.origin = .dottedKey
                table = existing
            case .table:
                throw error("\(role.subject(path)) extends \(Echo.cut(name)), a table defined elsewhere by its [header]", at: start)
            case .tables(let array) where role != .key:
                table = array.elements[array.elements.count - 1]
            case .tables:
                throw error("\(role.subject(path)) goes through \(Echo.cut(name)), an array of tables, which only [[…]] headers extend", at: start)
            case .value(.table):
                throw error("\(role.subject(path)) extends \(Echo.cut(name)), an inline table, which is closed", at: start)
            case .value(.array):
                throw error("\(role.subject(path)) extends \(Echo.cut(name)), an array written as a value, which is closed", at: start)
            case .value:
                throw error("\(role.subject(path)) goes through \(Echo.cut(name)), which already has a value, not a table", at: start)
            }
        }
        return table
    }

    /// A new table `name` in `parent`, one level deeper.
    private func child(of parent: TOMLTableBuilder, _ name: String, origin: TOMLTableBuilder.Origin, at start: Int) throws(TOMLSyntaxError)
        -> TOMLTableBuilder
    {
        try checkDepth(parent.depth + 1, at: start)
        let table = TOMLTableBuilder(origin: origin, depth: parent.depth + 1)
        parent.set(name, .table(table))
        return table
    }
}

/// A table while the document is read. A reference, not a value, so that the keys below a
/// `[header]` go straight into its table: a ``TOMLTable`` held in its parent would be copied
/// whole for every key added to it, and reading would take time quadratic in the file.
final class TOMLTableBuilder {
    /// How the table came to be, for TOML's rules on defining a table twice.
    enum Origin: Equatable {
        /// Created on the way to a deeper `[a.b]` header: a later `[a]` may still define it.
        case implicit
        /// Defined by its own `[header]` or `[[header]]`.
        case header
        /// Created by a dotted key (`a.b = 1`).
        case dottedKey
        /// Written inline (`{ … }`).
        case inline
    }

    /// What a key holds while the document is read.
    enum Entry {
        /// A finished value (inline tables and arrays included: nothing may extend them).
        case value(TOMLValue)
        /// A table that later lines may still add to.
        case table(TOMLTableBuilder)
        /// An array of tables (`[[name]]`), its last table still open.
        case tables(TOMLTableArray)
    }

    var origin: Origin
    /// Tables and arrays around it (the document's own table is 0), for the bound on nesting.
    let depth: Int
    private var names: [String] = []
    private var entries: [String: Entry] = [:]

    init(origin: Origin, depth: Int) {
        self.origin = origin
        self.depth = depth
    }

    subscript(name: String) -> Entry? {
        entries[name]
    }

    /// Sets `name`, which must be new.
    func set(_ name: String, _ entry: Entry) {
        names.append(name)
        entries[name] = entry
    }

    /// The finished table.
    func table() -> TOMLTable {
        var table = TOMLTable()
        for name in names {
            switch entries[name]! {
            case .value(let value): table.append(name, value)
            case .table(let builder): table.append(name, .table(builder.table()))
            case .tables(let array): table.append(name, .array(array.elements.map { .table($0.table()) }))
            }
        }
        return table
    }
}

/// The tables of one `[[name]]` array while the document is read: a reference, so a header
/// appends to it in place. Held as an array in the table's dictionary, every append copied it
/// whenever a reference to the entry was still alive (Swift 6.2.3 kept one through the
/// `switch` that found the entry): 100,000 `[[a]]` headers took 95 s.
final class TOMLTableArray {
    var elements: [TOMLTableBuilder]

    init(_ first: TOMLTableBuilder) {
        elements = [first]
    }
}
