import ArgumentParser

/// The options `status` and `doctor` share: where the state is, which configuration applies,
/// and whether to print JSON.
struct OperationsOptions: ParsableArguments {
    @OptionGroup var state: StateDirectoryOption

    @Flag(name: .long, help: "Print JSON instead of tables.")
    var json = false

    /// The configuration in effect, with the state directory chosen as every command chooses
    /// it (`--state-dir`, `EDGE_GATEWAY_STATE_DIR`, `[gateway] state_dir`). A bad configuration
    /// exits 78.
    func resolve() throws -> (configuration: GatewayConfiguration, stateDirectory: String) {
        let loaded = try state.loadConfiguration()
        return (loaded, loaded.gateway.stateDirectory)
    }
}
