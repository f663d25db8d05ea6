import ArgumentParser
import BlueZ
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
import OutputFormats
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
        if let names = configuration.bluetooth.adapterNames { try await Self.checkAdaptersPresent(names) }
        do {
            _ = try ConsoleSecuritySetup.prepare(configuration.web, stateDirectory: configuration.gateway.stateDirectory)
        } catch {
            StandardError.writeLine("edge-gateway run: \(error)")
            throw ExitStatus.configuration
        }
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
    /// Exit 78 when `[bluetooth] adapters` names an adapter bluetoothd does not have, naming
    /// those it has: a typo would otherwise leave the straps waiting for ever. An adapter is
    /// given 10 s to appear (a USB dongle enumerating at boot); with bluetoothd not running the
    /// check is left to the daemon, which waits for it and says so.
    static func checkAdaptersPresent(_ names: [String]) async throws {
        guard let client = try? await BlueZClient.connect(.system) else { return }
        defer { Task { await client.close() } }
        let present = { @Sendable (client: isolated BlueZClient) in Set(client.adapters().map(\.name)) }
        guard await client.isDaemonRunning,
            !(await client.wait(timeout: .seconds(10)) { !$0.isDaemonRunning || present($0).isSuperset(of: names) })
        else { return }
        let have = await present(client).sorted()
        let missing = names.filter { !have.contains($0) }
        StandardError.writeLine(
            "edge-gateway run: [bluetooth] adapters names \(missing.joined(separator: ", ")), which this box does not have (present: "
                + (have.isEmpty ? "none" : have.joined(separator: ", "))
                + "); set adapters to \"all\" or to adapters `bluetoothctl list` shows")
        throw ExitStatus.configuration
    }

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
