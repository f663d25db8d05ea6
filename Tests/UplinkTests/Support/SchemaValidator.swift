import Foundation
import GatewayTestSupport

/// Runs `Fixtures/validate-omh.py` (python3 + jsonschema against the real IEEE/OMH schemas
/// copied into the fixtures) on files the test wrote.
enum SchemaValidator {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    struct Report {
        let status: Int32
        let output: String
    }

    /// Validates each `(flag, file)` pair, flag being `--bundle` or `--point`.
    static func validate(_ inputs: [(String, URL)]) async throws -> Report {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", fixtures.appendingPathComponent("validate-omh.py").path]
            + inputs.flatMap { [$0.0, $0.1.path] }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("validate-\(UUID()).txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        await process.waitForExit()
        try handle.close()
        return Report(status: process.terminationStatus, output: try String(contentsOf: output, encoding: .utf8))
    }

    /// A fresh temporary directory owned by one test.
    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("uplink-test-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
