/// `EDGE_GATEWAY_<SECTION>_<KEY>` variables turned into settings that apply over the file.
/// A variable that starts like a section's overrides but names no key is an error (a typo
/// would otherwise be ignored silently); other `EDGE_GATEWAY_*` variables are not ours.
enum EnvironmentOverrides {
    /// The older spelling of `EDGE_GATEWAY_GATEWAY_STATE_DIR`, which every command has read
    /// since the first release; empty counts as unset.
    static let stateDirectoryVariable = "EDGE_GATEWAY_STATE_DIR"

    /// The overrides in `environment`, sorted by variable name.
    static func settings(in environment: [String: String]) throws(ConfigurationError) -> [ConfigurationSetting] {
        let prefix = ConfigurationSchema.environmentPrefix
        var settings: [ConfigurationSetting] = []
        for (variable, text) in environment.sorted(by: { $0.key < $1.key }) where variable.hasPrefix(prefix) {
            if let key = ConfigurationSchema.keys.first(where: { $0.environmentVariable == variable }) {
                settings.append(
                    ConfigurationSetting(
                        key: key, value: key.value(fromEnvironment: text),
                        origin: .environment(variable: variable, text: text)))
            } else if variable == stateDirectoryVariable {
                if !text.isEmpty, let key = ConfigurationSchema.key("gateway", "state_dir") {
                    settings.append(
                        ConfigurationSetting(
                            key: key, value: .string(text),
                            origin: .environment(variable: variable, text: text)))
                }
            } else if let section = ConfigurationSchema.sections.first(where: { variable.hasPrefix(prefix + $0.uppercased() + "_") }) {
                let names = ConfigurationSchema.keys(in: section).map(\.environmentVariable).joined(separator: ", ")
                throw ConfigurationError(
                    .unknownVariable, "environment variable \(variable) names no key of [\(section)]; the overrides of [\(section)] are \(names)")
            }
        }
        try checkAgreement(settings)
        return settings
    }

    /// Two variables for the same key (`EDGE_GATEWAY_STATE_DIR` and
    /// `EDGE_GATEWAY_GATEWAY_STATE_DIR`) must agree: which one wins would be a guess.
    private static func checkAgreement(_ settings: [ConfigurationSetting]) throws(ConfigurationError) {
        for (index, setting) in settings.enumerated() {
            for other in settings[(index + 1)...] where other.key.label == setting.key.label && other.value != setting.value {
                throw ConfigurationError(.conflictingVariables, "\(setting.subject) and \(other.subject) disagree; set only one of them")
            }
        }
    }
}
