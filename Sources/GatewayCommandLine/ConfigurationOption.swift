import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayConfiguration
import OutputFormats

/// `--config FILE`: where the gateway's configuration is. Part of ``StateDirectoryOption``
/// (so every command that touches state finds it the way the daemon does), and usable alone
/// by a command that needs the configuration but no `--state-dir`.
package struct ConfigurationOption: ParsableArguments, Sendable {
    /// The defaults, before the command line is parsed (ArgumentParser's requirement).
    package init() {}

    /// Where a deployed gateway keeps its configuration.
    static let defaultPath = "/etc/edge-gateway/gateway.toml"

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "The configuration file (default: \(defaultPath); a missing default file means all defaults).",
            valueName: "FILE"))
    var path: String?

    /// The file in effect.
    package var effectivePath: String { path ?? Self.defaultPath }

    /// The configuration in effect (file, then `EDGE_GATEWAY_*` overrides from `environment`).
    /// A missing file is an error only when `--config` named it.
    func read(environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigurationError) -> GatewayConfiguration {
        let text = try ConfigurationFile.text(at: effectivePath, required: path != nil)
        return try ConfigurationLoader.load(text: text, path: effectivePath, environment: environment)
    }

    /// The configuration in effect, for a command: a problem is printed on standard error
    /// and ends the command with exit status 78.
    func load() throws -> GatewayConfiguration {
        do {
            return try read()
        } catch {
            StandardError.writeLine("edge-gateway: \(error)")
            throw ExitStatus.configuration
        }
    }
}
