import ArgumentParser
import GatewayConfiguration

/// `--state-dir DIR` (and `--config FILE`), shared by every command that reads or writes
/// gateway state (queue, credentials, sensor bindings). The directory is chosen the same way
/// for every command and the daemon: `--state-dir`, else `EDGE_GATEWAY_STATE_DIR` (or
/// `EDGE_GATEWAY_GATEWAY_STATE_DIR`), else `[gateway] state_dir` in the configuration file,
/// else ``defaultDirectory``.
package struct StateDirectoryOption: ParsableArguments, Sendable {
    /// The defaults, before the command line is parsed (ArgumentParser's requirement).
    package init() {}

    /// Used when neither the flag, the environment nor the configuration names one.
    static let defaultDirectory = GatewayConfiguration.defaultStateDirectory

    @Option(
        name: .customLong("state-dir"),
        help: ArgumentHelp(
            "The gateway's state directory (default: $EDGE_GATEWAY_STATE_DIR, else [gateway] state_dir in the configuration, else \(defaultDirectory)).",
            valueName: "DIR"))
    var stateDirectory: String?

    /// `--config FILE`: the configuration whose `[gateway] state_dir` (and environment overrides)
    /// apply when `--state-dir` is not given.
    @OptionGroup package var configuration: ConfigurationOption

    /// The directory in effect (resolved when the command line is parsed).
    package var directory: String { stateDirectory ?? Self.defaultDirectory }

    /// Without `--state-dir`, takes the directory from the configuration (which applies the
    /// environment over the file); a bad configuration ends the command with exit status 78.
    package mutating func validate() throws {
        if stateDirectory == nil {
            stateDirectory = try configuration.load().gateway.stateDirectory
        }
    }

    /// The whole configuration in effect, with `--state-dir` applied over it.
    package func loadConfiguration() throws -> GatewayConfiguration {
        var loaded = try configuration.load()
        loaded.gateway.stateDirectory = directory
        return loaded
    }
}
