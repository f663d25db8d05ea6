/// The configuration in effect, as a pure function of the file's text and the environment:
/// defaults, then the file, then the `EDGE_GATEWAY_*` overrides, each value checked the
/// same way whichever source it came from. The first problem ends loading with one message.
package enum ConfigurationLoader {
    /// `text` is the file's content (nil when there is no file), `path` names it in messages.
    package static func load(text: String?, path: String, environment: [String: String]) throws(ConfigurationError) -> GatewayConfiguration {
        var settings: [ConfigurationSetting] = []
        if let text {
            settings = try ConfigurationDocument.settings(in: text, path: path)
        }
        settings += try EnvironmentOverrides.settings(in: environment)
        var configuration = GatewayConfiguration()
        for setting in settings {
            do throws(SettingValueError) {
                try setting.key.store(&configuration, setting.value)
            } catch {
                throw setting.error(error)
            }
        }
        return configuration
    }
}
