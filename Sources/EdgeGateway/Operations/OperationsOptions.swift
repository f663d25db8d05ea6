import ArgumentParser
import Foundation

/// The options `status` and `doctor` share: where the state is, which configuration applies,
/// and whether to print JSON.
struct OperationsOptions: ParsableArguments {
    @OptionGroup var state: StateDirectoryOption
    @OptionGroup var configuration: ConfigurationOption

    @Flag(name: .long, help: "Print JSON instead of tables.")
    var json = false

    /// The configuration in effect and the state directory: `--state-dir`, else
    /// `EDGE_GATEWAY_STATE_DIR`, else `[gateway] state_dir`. A bad configuration exits 78.
    func resolve() throws -> (configuration: GatewayConfiguration, stateDirectory: String) {
        let loaded: GatewayConfiguration
        do {
            loaded = try configuration.load()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            StandardError.writeLine("edge-gateway: \(error)")
            throw ExitCode(78)
        }
        let fromEnvironment = ProcessInfo.processInfo.environment["EDGE_GATEWAY_STATE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        return (loaded, state.stateDirectory ?? fromEnvironment ?? loaded.gateway.stateDirectory)
    }
}
