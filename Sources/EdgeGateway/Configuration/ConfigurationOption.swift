import ArgumentParser

/// `--config FILE`, for commands that act on the gateway's configuration (`run`, `doctor`,
/// `status`).
struct ConfigurationOption: ParsableArguments {
    /// Where a deployed gateway keeps its configuration.
    static let defaultPath = "/etc/edge-gateway/gateway.toml"

    @Option(name: .customLong("config"), help: ArgumentHelp(
        "The configuration file (default: \(defaultPath); a missing default file means all defaults).",
        valueName: "FILE"))
    var path: String?

    /// The configuration in effect.
    func load() throws -> GatewayConfiguration {
        GatewayConfiguration()
    }
}
