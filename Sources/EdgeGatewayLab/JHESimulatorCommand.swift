import ArgumentParser
import GatewayCommandLine
import GatewayDaemon
import JHESimulator

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
    }
}
