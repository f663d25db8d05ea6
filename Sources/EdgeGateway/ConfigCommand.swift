import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayCommandLine
import GatewayConfiguration
import OutputFormats

/// `edge-gateway config`: the configuration as the gateway sees it.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the gateway's configuration (gateway.toml and EDGE_GATEWAY_* overrides).",
        subcommands: [ConfigCheckCommand.self]
    )
}

/// `edge-gateway config check [--config FILE] [--print]`: loads the configuration exactly as
/// the daemon does and reports the first problem (exit 78), so a technician can check an edit
/// before restarting the service.
struct ConfigCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the configuration; with --print, show every value in effect as TOML.",
        discussion: """
            Exit status 0 when the configuration is usable, 78 (EX_CONFIG) with one message \
            naming the file or variable, the key and what is allowed otherwise.
            """
    )

    @OptionGroup var state: StateDirectoryOption

    @Flag(name: .customLong("print"), help: "Print the effective configuration (defaults, file, environment, --state-dir) as TOML.")
    var printEffective = false

    func run() throws {
        let effective = try state.loadConfiguration()
        if printEffective {
            StandardOutput.writeLine(ConfigurationPrinter.toml(effective))
        } else if FileManager.default.fileExists(atPath: state.configuration.effectivePath) {
            StandardOutput.writeLine("\(state.configuration.effectivePath): configuration OK")
        } else {
            StandardOutput.writeLine(
                "\(state.configuration.effectivePath) does not exist: the defaults apply (with any EDGE_GATEWAY_* overrides); configuration OK")
        }
    }
}
