import ArgumentParser
import Foundation
import GatewayCommandLine
import JHESimulator
import OutputFormats

/// `edge-gateway-lab jhe-simulator`: runs the loopback JHE stand-in for demos and manual tests.
struct JHESimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jhe-simulator",
        abstract: "Run a loopback stand-in for JupyterHealth Exchange (for demos and tests).",
        discussion: """
            Prints its base URL and a fresh patient invitation link, then serves until \
            interrupted. Enrol against it with: edge-gateway enroll '<printed link>'
            """
    )

    @Option(name: .long, help: "Port to listen on (0 picks a free one).")
    var port: Int = 8000

    @Option(name: .customLong("token-lifetime"), help: "Access-token lifetime in seconds (JHE: 1209600, two weeks).")
    var tokenLifetime: Int = 1_209_600

    @Option(
        help: ArgumentHelp(
            "On SIGINT or SIGTERM, write what the server holds to this file as JSON: the header uuid of every stored heart-rate data point, in storage order, and how many entries it refused as duplicates.",
            valueName: "file"))
    var ledger: String?

    func validate() throws {
        guard (0 ... 65535).contains(port) else { throw ValidationError("--port must be 0–65535.") }
        guard tokenLifetime > 0 else { throw ValidationError("--token-lifetime must be positive.") }
    }

    func run() async throws {
        let simulator = JHESimulator(port: port, tokenLifetime: tokenLifetime)
        let baseURL: String
        do {
            baseURL = try await simulator.start()
        } catch {
            StandardError.writeLine("edge-gateway-lab jhe-simulator: \(error)")
            throw ExitStatus.unavailable
        }
        StandardOutput.writeLine("JHE simulator listening on \(baseURL)")
        StandardOutput.writeLine("patient \(JHESimulator.defaultPatientID), device \(JHESimulator.defaultDeviceID)")
        StandardOutput.writeLine("invitation link: \(await simulator.issueInvitation())")
        _ = await TerminationSignals.wait()
        await simulator.stop()
        if let ledger { try await writeLedger(of: simulator, to: ledger) }
    }

    /// The stored data points' ids (a test's record of what reached the server: an id twice
    /// means a sample stored twice) and the duplicate entries refused with 409.
    private func writeLedger(of simulator: JHESimulator, to path: String) async throws {
        let stored = await simulator.storedDataPoints().map { $0.uuid?.uuidString ?? "missing" }
        let object: [String: Any] = ["stored": stored, "duplicates_refused": await simulator.counters.duplicates]
        do {
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        } catch {
            StandardError.writeLine("edge-gateway-lab jhe-simulator: cannot write the ledger \(path): \(error)")
            throw ExitStatus.cannotCreate
        }
    }
}
