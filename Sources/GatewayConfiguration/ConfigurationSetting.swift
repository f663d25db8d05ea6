import OutputFormats
/// One key set to one value by one source (the file or an environment variable): what the
/// loader applies, and what an error message points at.
struct ConfigurationSetting: Sendable {
    /// Where a value came from.
    enum Origin: Sendable, Equatable {
        /// The configuration file at this path.
        case file(String)
        /// An `EDGE_GATEWAY_*` variable and its text as given.
        case environment(variable: String, text: String)
    }

    let key: ConfigurationKey
    let value: ConfigurationValue
    let origin: Origin

    /// The start of every message about this setting: the file or variable, the key, the value
    /// (cut short if long).
    var subject: String {
        switch origin {
        case .file(let path): "\(path): \(key.label) = \(Echo.cut(value.tomlText))"
        case .environment(let variable, let text): "environment variable \(variable)=\(Echo.cut(text)) (for \(key.label))"
        }
    }

    /// The error for a value the key refused.
    func error(_ rejection: SettingValueError) -> ConfigurationError {
        switch rejection {
        case .wrongType:
            let found = value.found.map { "is \($0), not" } ?? "is not"
            return ConfigurationError(.wrongType, "\(subject) \(found) \(key.kind.noun); expected \(key.allowed)")
        case .notAllowed(let detail):
            let reason = detail.map { " (\($0))" } ?? ""
            return ConfigurationError(.invalidValue, "\(subject) is not allowed\(reason); expected \(key.allowed)")
        }
    }
}

/// Why a key refused a value: the message around it is built by ``ConfigurationSetting``.
enum SettingValueError: Error, Sendable {
    /// The value has the wrong type for the key.
    case wrongType
    /// The value has the right type but is outside what the key allows; `detail` says why
    /// when "what is allowed" alone would not make it clear.
    case notAllowed(detail: String?)
}
