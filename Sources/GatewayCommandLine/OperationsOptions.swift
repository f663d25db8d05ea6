import ArgumentParser
import GatewayDaemon

/// The options `status` and `doctor` share: where the state is, which configuration applies,
/// and whether to print JSON.
public struct OperationsOptions: ParsableArguments, Sendable {
    /// The defaults, before the command line is parsed (ArgumentParser's requirement).
    public init() {}

    @OptionGroup var state: StateDirectoryOption

    /// `--json`: print JSON for scripts instead of the tables for people.
    @Flag(name: .long, help: "Print JSON instead of tables.")
    public var json = false

    /// The configuration in effect, with the state directory chosen as every command chooses
    /// it (`--state-dir`, `EDGE_GATEWAY_STATE_DIR`, `[gateway] state_dir`). A bad configuration
    /// exits 78.
    public func resolve() throws -> (configuration: GatewayConfiguration, stateDirectory: String) {
        let loaded = try state.loadConfiguration()
        return (loaded, loaded.gateway.stateDirectory)
    }
}
