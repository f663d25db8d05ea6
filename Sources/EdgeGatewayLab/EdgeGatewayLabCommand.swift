import ArgumentParser
import GatewayCommandLine

/// The lab: everything for trying, demonstrating and testing the gateway without hardware.
/// None of it is installed on a box (the .deb ships `edge-gateway` alone): it carries test
/// doubles (a simulated bluetoothd, a simulated JHE with its own OAuth server) and load
/// generators that a patient's gateway has no use for.
@main
struct EdgeGatewayLabCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edge-gateway-lab",
        abstract: "The gateway's lab: demo, soak test and simulators, for development machines only.",
        discussion: """
            The demo and the soak test run the real daemon, `edge-gateway run`, found next to \
            this program, between simulated straps and a simulated JupyterHealth Exchange.

            Example: the whole job in a minute, with a network outage
              edge-gateway-lab demo --sensors 3 --duration 60
            """,
        version: "0.1.0",
        subcommands: [
            DemoCommand.self, SoakCommand.self, FootprintCommand.self, SimulateCommand.self, JHESimulatorCommand.self, AppendNumberedCommand.self,
        ]
    )
}
