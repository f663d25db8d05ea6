/// A configuration written back as a `gateway.toml` that loads to the same values: what
/// `config check --print` shows a technician as "what the gateway will actually use".
package enum ConfigurationPrinter {
    /// Every section and key in schema order, with the values of `configuration`.
    package static func toml(_ configuration: GatewayConfiguration) -> String {
        ConfigurationSchema.sections.map { section in
            (["[\(section)]"]
                + ConfigurationSchema.keys(in: section).map { key in
                    "\(key.name) = \(key.current(configuration).tomlText)"
                }).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}
