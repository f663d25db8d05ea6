import Foundation
import GatewayTestSupport

/// The repository's deployment files, and the programs the deployment tests run on them.
enum DeployTree {
    /// The repository root (this file is `Tests/EdgeGatewayTests/Deploy/DeployTree.swift`).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `relative` inside the repository.
    static func path(_ relative: String) -> String {
        repository.appendingPathComponent(relative).path
    }

    /// Runs `program` (a path or a name looked up in `PATH`) and returns what it left behind.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> GatewayProcess.Result {
        try await GatewayProcess.run([program] + arguments, executable: "/usr/bin/env", environment: environment, timeout: .seconds(300))
    }

    /// Stages `deploy/install.sh` into `directory/root`, with `binary` and a one-line example
    /// configuration, and returns the root.
    static func stage(into directory: TemporaryDirectory, binary: String, extraArguments: [String] = []) async throws -> (
        root: String, result: GatewayProcess.Result
    ) {
        let example = directory.file("gateway.toml.example")
        if !FileManager.default.fileExists(atPath: example) {
            try Data("[gateway]\nname = \"example\"\n".utf8).write(to: URL(fileURLWithPath: example))
        }
        let root = directory.file("root")
        let result = try await run(
            path("deploy/install.sh"),
            ["--binary", binary, "--destdir", root, "--config-example", example] + extraArguments)
        return (root, result)
    }

    /// The permission bits of the file at `path`.
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
