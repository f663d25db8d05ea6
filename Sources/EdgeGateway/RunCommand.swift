import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayCommandLine
import GatewayDaemon
import GatewayPipeline
import Glibc
import Logging
import OfflineQueue

/// `edge-gateway run`: the daemon systemd starts (`deploy/edge-gateway.service`).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the gateway: supervise bound straps, queue every sample, upload to JHE.",
        discussion: """
            Runs until SIGTERM or SIGINT, then stops the straps, commits the samples it holds and \
            exits 0. Straps bound with `edge-gateway pair` while it runs are picked up within seconds. \
            Logs go to standard error with systemd priority prefixes.

            Example (what the systemd unit runs):
              edge-gateway run --config /etc/edge-gateway/gateway.toml
            """
    )

    @OptionGroup var state: StateDirectoryOption

    @Option(help: ArgumentHelp("Least severe log level: trace, debug, info, notice, warning, error, critical.", valueName: "LEVEL"))
    var logLevel: Logger.Level = .info

    func run() async throws {
        Self.unblockTerminationSignals()
        let configuration = try state.loadConfiguration()
        GatewayLogging.bootstrap(level: logLevel)
        let daemon = Gateway(
            configuration: configuration, environment: ProcessInfo.processInfo.environment,
            logger: Logger(label: "edge-gateway"))
        do {
            try await daemon.run()
        } catch let error as QueueError where error.code == .inaccessible {
            // Already logged with the file and the fix; 73 is in the unit's RestartPreventExitStatus.
            throw ExitStatus.cannotCreate
        } catch let error as GatewayError {
            // Already logged, as above.
            throw error.code == .alreadyRunning ? ExitStatus.alreadyRunning : ExitStatus.cannotCreate
        }
    }
}

extension RunCommand {
    /// A blocked signal mask survives exec: a daemon started by a program that blocks SIGTERM
    /// (some supervisors and test runners do) would never hear it and never shut down cleanly.
    static func unblockTerminationSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
