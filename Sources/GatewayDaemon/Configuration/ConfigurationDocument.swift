import TOMLKit

/// The TOML text of a configuration file turned into settings, refusing what is not valid
/// TOML, a section or key the gateway does not know, and a section that is not a table.
/// Values are not checked here (that is each key's job, the same for file and environment).
enum ConfigurationDocument {
    /// The settings in `text` (read from `path`, which messages name), in schema order.
    static func settings(in text: String, path: String) throws(ConfigurationError) -> [ConfigurationSetting] {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let start = error.source.begin
            throw ConfigurationError(.invalidTOML, "\(path):\(start.line):\(start.column): not valid TOML: \(error.description)")
        } catch {
            throw ConfigurationError(.invalidTOML, "\(path): not valid TOML: \(error)")
        }
        let known = ConfigurationSchema.sections.map { "[\($0)]" }.joined(separator: ", ")
        for name in root.keys.sorted() where !ConfigurationSchema.sections.contains(name) {
            let what = root[name]?.table == nil ? "key \(name) outside any section" : "section [\(name)]"
            throw ConfigurationError(.unknownSection, "\(path): unknown \(what); the sections are \(known)")
        }
        var settings: [ConfigurationSetting] = []
        for section in ConfigurationSchema.sections {
            guard let entry = root[section] else { continue }
            guard let table = entry.table else {
                throw ConfigurationError(.wrongType, "\(path): [\(section)] must be a section (a table), not \(value(entry).found ?? "a value")")
            }
            let keys = ConfigurationSchema.keys(in: section)
            for name in table.keys.sorted() where !keys.contains(where: { $0.name == name }) {
                let names = keys.map(\.name).joined(separator: ", ")
                throw ConfigurationError(.unknownKey, "\(path): unknown key [\(section)] \(name); the keys of [\(section)] are \(names)")
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
    private static func value(_ entry: any TOMLValueConvertible) -> ConfigurationValue {
        if let text = entry.string { return .string(text) }
        if let number = entry.int { return .integer(number) }
        if let flag = entry.bool { return .boolean(flag) }
        let found: String = switch entry.type {
        case .double: "a floating-point number"
        case .array: "an array"
        case .table: "a table"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        default: "a \(entry.type)"
        }
        let text = entry.type == .table ? "{ … }" : entry.tomlValue.debugDescription
        return .mistyped(text: text, found: found)
    }
}
