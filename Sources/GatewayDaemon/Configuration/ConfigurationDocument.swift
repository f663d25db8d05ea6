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
            let what = if case .table? = root[name] { "section [\(Echo.cut(name))]" } else { "key \(Echo.cut(name)) outside any section" }
            throw ConfigurationError(.unknownSection, "\(path): unknown \(what); the sections are \(known)")
        }
        var settings: [ConfigurationSetting] = []
        for section in ConfigurationSchema.sections {
            guard let entry = root[section] else { continue }
            guard case .table(let table) = entry else {
                throw ConfigurationError(.wrongType, "\(path): [\(section)] must be a section (a table), not \(value(entry).found ?? "a value")")
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

    /// A TOML value as a ``ConfigurationValue``: the three types keys take, or what else it is.
    private static func value(_ entry: TOMLValue) -> ConfigurationValue {
        switch entry {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .boolean(let flag): .boolean(flag)
        case .table: .mistyped(text: "{ … }", found: "a table")
        case .other(let text, let kind): .mistyped(text: text, found: kind.rawValue)
        }
    }
}
