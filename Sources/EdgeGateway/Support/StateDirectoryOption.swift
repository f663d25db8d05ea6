import ArgumentParser
import Foundation

/// `--state-dir DIR`, shared by every command that reads or writes gateway state (queue,
/// credentials, sensor bindings).
struct StateDirectoryOption: ParsableArguments {
    /// Used when neither `--state-dir` nor `EDGE_GATEWAY_STATE_DIR` is given.
    static let defaultDirectory = "/var/lib/edge-gateway"

    @Option(name: .customLong("state-dir"), help: ArgumentHelp(
        "The gateway's state directory (default: $EDGE_GATEWAY_STATE_DIR, else \(defaultDirectory)).",
        valueName: "DIR"))
    var stateDirectory: String?

    /// The directory in effect; an empty `EDGE_GATEWAY_STATE_DIR` counts as unset.
    var directory: String {
        stateDirectory
            ?? ProcessInfo.processInfo.environment["EDGE_GATEWAY_STATE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.defaultDirectory
    }
}
