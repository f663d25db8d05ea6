/// One key of `gateway.toml`: its place, its type, what it allows, how it sets the typed
/// configuration and how it reads back. The list of them (``ConfigurationSchema``) drives the
/// file parser, the environment overrides, `config check --print` and the documentation test.
struct ConfigurationKey: Sendable {
    /// The TOML type a key takes.
    enum Kind: Sendable {
        case string, integer, boolean

        /// For "is a string, not an integer".
        var noun: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            case .boolean: "a boolean"
            }
        }
    }

    /// The `[section]` it belongs to.
    let section: String
    /// Its name inside the section (`batch_size`).
    let name: String
    let kind: Kind
    /// What is allowed, for messages (`a whole number from 1 to 1000`).
    let allowed: String
    /// Checks `value` and stores it in the configuration.
    let store: @Sendable (inout GatewayConfiguration, ConfigurationValue) throws(SettingValueError) -> Void
    /// The key's value in a configuration, as a file would set it.
    let current: @Sendable (GatewayConfiguration) -> ConfigurationValue

    /// `[uplink] batch_size`, as messages name it.
    var label: String { "[\(section)] \(name)" }

    /// The variable that overrides it: `EDGE_GATEWAY_UPLINK_BATCH_SIZE`.
    var environmentVariable: String { ConfigurationSchema.environmentPrefix + "\(section)_\(name)".uppercased() }

    /// Reads an environment variable's text as this key's type.
    func value(fromEnvironment text: String) -> ConfigurationValue {
        switch kind {
        case .string: .string(text)
        case .integer: Int(text).map(ConfigurationValue.integer) ?? .mistyped(text: text, found: nil)
        case .boolean: Bool(text).map(ConfigurationValue.boolean) ?? .mistyped(text: text, found: nil)
        }
    }
}
