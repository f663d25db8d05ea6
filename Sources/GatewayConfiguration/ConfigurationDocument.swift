import OutputFormats
/// The TOML text of a configuration file turned into settings, refusing what is not valid
/// TOML, a section or key the gateway does not know, and a section that is not a table.
/// Values are not checked here (that is each key's job, the same for file and environment).
enum ConfigurationDocument {
    /// The settings in `text` (read from `path`, which messages name), in schema order.
    static func settings(in text: String, path: String) throws(ConfigurationError) -> [ConfigurationSetting] {
        let root: TOMLTable
        do {
            root = try TOMLParser.parse(text)
        } catch {
            throw ConfigurationError(.invalidTOML, "\(path):\(error.line):\(error.column): not valid TOML: \(error.message)")
        }
        let known = ConfigurationSchema.sections.map { "[\($0)]" }.joined(separator: ", ")
        for name in root.keys.sorted() where !ConfigurationSchema.sections.contains(name) {
            let what = isSection(root[name]) ? "section [\(Echo.cut(name))]" : "key \(Echo.cut(name)) outside any section"
            throw ConfigurationError(.unknownSection, "\(path): unknown \(what); the sections are \(known)")
        }
        var settings: [ConfigurationSetting] = []
        for section in ConfigurationSchema.sections {
            guard let entry = root[section] else { continue }
            guard case .table(let table) = entry else {
                let hint = isSection(entry) ? "; write [\(section)] once, not [[\(section)]]" : ""
                throw ConfigurationError(.wrongType, "\(path): [\(section)] must be a section (a table), not \(value(entry).found ?? "a value")\(hint)")
            }
            let keys = ConfigurationSchema.keys(in: section)
            for name in table.keys.sorted() where !keys.contains(where: { $0.name == name }) {
                let names = keys.map(\.name).joined(separator: ", ")
                throw ConfigurationError(.unknownKey, "\(path): unknown key [\(section)] \(Echo.cut(name)); the keys of [\(section)] are \(names)")
            }
            for key in keys {
                if let entry = table[key.name] {
                    settings.append(ConfigurationSetting(key: key, value: value(entry), origin: .file(path)))
                }
            }
        }
        return settings
    }

    /// A table, or an array of tables (`[[name]]`): what a header makes.
    private static func isSection(_ entry: TOMLValue?) -> Bool {
        switch entry {
        case .table?: true
        case .array(let elements)?: !elements.isEmpty && elements.allSatisfy { if case .table = $0 { true } else { false } }
        default: false
        }
    }

    /// A TOML value as a ``ConfigurationValue``: the three types keys take, or what else it is.
    private static func value(_ entry: TOMLValue) -> ConfigurationValue {
        switch entry {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .boolean(let flag): .boolean(flag)
        case .float: .mistyped(text: text(of: entry), found: "a floating-point number")
        case .dateTime(let moment): .mistyped(text: text(of: entry), found: moment.kind)
        case .array: .mistyped(text: text(of: entry), found: isSection(entry) ? "an array of tables" : "an array")
        case .table: .mistyped(text: text(of: entry), found: "a table")
        }
    }

    /// `entry` as TOML writes it, for a message about a value no key takes (a table is
    /// abbreviated: only its type matters there).
    private static func text(of entry: TOMLValue) -> String {
        switch entry {
        case .string(let text): JSONWriter.quoted(text)  // TOML basic strings take JSON's escapes (TOML 1.0 §String)
        case .integer(let number): String(number)
        case .float(let number): String(number)
        case .boolean(let flag): String(flag)
        case .dateTime(let moment): moment.description
        case .array(let elements): "[" + elements.map(text(of:)).joined(separator: ", ") + "]"
        case .table: "{ … }"
        }
    }
}
