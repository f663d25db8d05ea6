import ArgumentParser
import Foundation

/// `--state-dir DIR`, shared by the commands that read or write gateway state. Defaults to
/// `$EDGE_GATEWAY_STATE_DIR`, else `/var/lib/edge-gateway`.
struct StateDirectoryOption: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: ArgumentHelp("State directory (env EDGE_GATEWAY_STATE_DIR; default /var/lib/edge-gateway).", valueName: "DIR"))
    var explicit: String?

    var path: String {
        explicit ?? ProcessInfo.processInfo.environment["EDGE_GATEWAY_STATE_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/var/lib/edge-gateway"
    }
}
