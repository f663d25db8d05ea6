import OutputFormats
/// One value as the operator wrote it (in the file or an environment variable), before a key
/// checks it: only the three TOML types a key can take, or a note of what else it was.
enum ConfigurationValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    /// Something no key takes: `text` is what was written, `found` names its type (`a
    /// floating-point number`), or is nil when an environment variable could not be read as
    /// the key's type at all.
    case mistyped(text: String, found: String?)

    /// The value as TOML writes it, for messages and `config check --print`.
    var tomlText: String {
        switch self {
        case .string(let text): JSONWriter.quoted(text)  // TOML basic strings take JSON's escapes (TOML 1.0 §String)
        case .integer(let number): String(number)
        case .boolean(let flag): String(flag)
        case .mistyped(let text, _): text
        }
    }

    /// What the value is, with its article (`a string`), for "is a string, not an integer".
    var found: String? {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .boolean: "a boolean"
        case .mistyped(_, let found): found
        }
    }
}
