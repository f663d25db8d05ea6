import ArgumentParser
import GatewayCommandLine
import ProcessThreads

/// The process's entry point: the command runs on one loop thread, the main one, which sleeps
/// until there is work (`ProcessExecutor`), instead of on libdispatch's pool.
@main
enum EdgeGatewayMain {
    static func main() {
        ProcessExecutor.runMain { await EdgeGatewayCommand.main() }
    }
}

/// The technician's single entry point: every gateway operation is a subcommand of it.
struct EdgeGatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edge-gateway",
        abstract: "Bluetooth LE heart-rate gateway: straps in, JupyterHealth Exchange out.",
        discussion: """
            Reads Heart Rate Service (0x180D) straps over BlueZ, keeps every sample in a durable \
            local queue, and uploads them as Open mHealth heart-rate data points. The demo, the \
            simulators and the soak test are in `edge-gateway-lab`, which is not installed on a box.

            Example: decode a frame copied from btmon or gatttool
              edge-gateway decode 10:4e:d2:02:c8:02
            """,
        version: "0.1.0",
        subcommands: [
            DecodeCommand.self, ScanCommand.self, PairCommand.self, LiveCommand.self, SensorsCommand.self,
            ForgetCommand.self, QueueCommand.self, RunCommand.self, EnrollCommand.self, ConfigCommand.self,
            StatusCommand.self, DoctorCommand.self, WebCommand.self,
        ]
    )
}
