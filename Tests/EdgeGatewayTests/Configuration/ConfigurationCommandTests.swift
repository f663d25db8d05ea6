import Foundation
import GatewayTestSupport
import Testing

/// The real `edge-gateway` binary: exit 78 with one message for a bad configuration, the
/// effective configuration with `config check --print`, and the state directory chosen the
/// same way by every command (`--state-dir` > environment > file > default).
@Suite("Configuration: edge-gateway config check and the state directory")
struct ConfigurationCommandTests {
    /// A temporary directory holding `gateway.toml` with `text`.
    static func configFile(_ text: String) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory("config-cli")
        let path = directory.file("gateway.toml")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (directory, path)
    }

    @Test("a good file exits 0; a bad value, a missing --config file and a bad override exit 78 with one message")
    func exitStatuses() async throws {
        let (directory, path) = try Self.configFile("[uplink]\nbatch_size = 50\n")
        defer { directory.remove() }
        let good = try await GatewayProcess.run(["config", "check", "--config", path])
        #expect(good.status == 0, "\(good.standardError)")
        #expect(good.standardOutput == "\(path): configuration OK\n")

        let bad = directory.file("bad.toml")
        try "[uplink]\nbatch_size = 0\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try await GatewayProcess.run(["config", "check", "--config", bad])
        #expect(refused.status == 78)
        #expect(
            refused.standardError
                == "edge-gateway: \(bad): [uplink] batch_size = 0 is not allowed; expected a whole number of entries from 1 to 1000 [config.invalid-value]\n")
        #expect(refused.standardOutput.isEmpty)

        let missing = directory.file("absent.toml")
        let absent = try await GatewayProcess.run(["config", "check", "--config", missing])
        #expect(absent.status == 78)
        #expect(absent.standardError.contains("\(missing): no such configuration file"), "\(absent.standardError)")

        let overridden = try await GatewayProcess.run(
            ["config", "check", "--config", path],
            environment: ["EDGE_GATEWAY_UPLINK_BATCH_SIZE": "many"])
        #expect(overridden.status == 78)
        #expect(
            overridden.standardError
                == "edge-gateway: environment variable EDGE_GATEWAY_UPLINK_BATCH_SIZE=many (for [uplink] batch_size) is not an integer; expected a whole number of entries from 1 to 1000 [config.wrong-type]\n"
        )

        let syntax = directory.file("syntax.toml")
        try "[uplink\n".write(toFile: syntax, atomically: true, encoding: .utf8)
        let notTOML = try await GatewayProcess.run(["config", "check", "--config", syntax])
        #expect(notTOML.status == 78)
        #expect(notTOML.standardError.hasPrefix("edge-gateway: \(syntax):1:"), "\(notTOML.standardError)")
    }

    @Test("--print shows every key with the file's and the environment's values applied")
    func printsEffectiveConfiguration() async throws {
        let (directory, path) = try Self.configFile("[uplink]\nbatch_size = 50\nresolution = \"5m\"\n")
        defer { directory.remove() }
        let result = try await GatewayProcess.run(
            ["config", "check", "--config", path, "--print"],
            environment: ["EDGE_GATEWAY_METRICS_LISTEN": "127.0.0.1:9464"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.outputLines
        #expect(lines.contains("batch_size = 50"))
        #expect(lines.contains("resolution = \"5m\""))
        #expect(lines.contains("listen = \"127.0.0.1:9464\""))
        #expect(lines.contains("timeout_s = 60"))
        #expect(lines.filter { $0.hasPrefix("[") } == ["[gateway]", "[bluetooth]", "[queue]", "[uplink]", "[metrics]", "[web]"])
    }

    @Test("state directory: --state-dir beats EDGE_GATEWAY_STATE_DIR beats [gateway] state_dir")
    func stateDirectoryPrecedence() async throws {
        let (directory, path) = try Self.configFile("[gateway]\nstate_dir = \"/from/file\"\n")
        defer { directory.remove() }
        func stateDirectory(_ extra: [String], _ environment: [String: String]) async throws -> String? {
            let result = try await GatewayProcess.run(["config", "check", "--print", "--config", path] + extra, environment: environment)
            #expect(result.status == 0, "\(result.standardError)")
            return result.outputLines.first { $0.hasPrefix("state_dir = ") }
        }
        #expect(try await stateDirectory([], [:]) == "state_dir = \"/from/file\"")
        #expect(try await stateDirectory([], ["EDGE_GATEWAY_STATE_DIR": "/from/env"]) == "state_dir = \"/from/env\"")
        #expect(try await stateDirectory(["--state-dir", "/from/flag"], ["EDGE_GATEWAY_STATE_DIR": "/from/env"]) == "state_dir = \"/from/flag\"")
    }

    @Test("queue commands find the state directory through the configuration, and a bad configuration stops them with 78")
    func queueCommandUsesConfiguration() async throws {
        let state = try TemporaryDirectory("config-state")
        defer { state.remove() }
        let (directory, path) = try Self.configFile("[gateway]\nstate_dir = \"\(state.path)\"\n")
        defer { directory.remove() }

        let fromFile = try await GatewayProcess.run(["queue", "stats", "--config", path])
        #expect(fromFile.status == 66, "no queue yet, in the directory the file names: \(fromFile.standardError)")
        #expect(fromFile.standardError.contains("no queue at \(state.path)/queue.sqlite"), "\(fromFile.standardError)")

        let bad = directory.file("bad.toml")
        try "[gateway]\nstate_dir = 5\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try await GatewayProcess.run(["queue", "stats", "--config", bad])
        #expect(refused.status == 78)
        #expect(
            refused.standardError
                == "edge-gateway: \(bad): [gateway] state_dir = 5 is an integer, not a string; expected a directory path such as /var/lib/edge-gateway [config.wrong-type]\n"
        )

        let flagWins = try await GatewayProcess.run(["queue", "stats", "--config", bad, "--state-dir", state.path])
        #expect(flagWins.status == 66, "--state-dir needs no configuration: \(flagWins.standardError)")
    }

    @Test("every invalid TOML 1.0 file of toml-test, and 50,000 nested arrays, exit config check with 78 and one message, never a signal")
    func invalidTOMLExits78() async throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("GatewayConfigurationTests/Fixtures/toml-test/tests/invalid")
        let files = try #require(FileManager.default.enumerator(atPath: corpus.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".toml") }.sorted()
        try #require(files.count > 400, "the toml-test corpus is missing from \(corpus.path)")
        let (directory, deep) = try Self.configFile("a = " + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000) + "\n")
        defer { directory.remove() }
        let paths = files.map { corpus.appendingPathComponent($0).path } + [deep]
        for path in paths {
            let result = try await GatewayProcess.run(["config", "check", "--config", path])
            #expect(result.status == 78, "\(path): exit \(result.status): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(path): \(result.standardError)")
        }
    }
}
