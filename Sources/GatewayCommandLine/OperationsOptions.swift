import ArgumentParser
import GatewayConfiguration

/// The options `status` and `doctor` share: where the state is, which configuration applies,
/// and whether to print JSON.
package struct OperationsOptions: ParsableArguments, Sendable {
    /// The defaults, before the command line is parsed (ArgumentParser's requirement).
    package init() {}

    @OptionGroup var state: StateDirectoryOption

    /// `--json`: print JSON for scripts instead of the tables for people.
    @Flag(name: .long, help: "Print JSON instead of tables.")
    package var json = false

    /// The configuration in effect, with the state directory chosen as every command chooses
    /// it (`--state-dir`, `EDGE_GATEWAY_STATE_DIR`, `[gateway] state_dir`). A bad configuration
    /// exits 78.
    package func resolve() throws -> (configuration: GatewayConfiguration, stateDirectory: String) {
        let loaded = try state.loadConfiguration()
        return (loaded, loaded.gateway.stateDirectory)
    }
}
