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
        let run = try await GatewayProcess.run(
            [fixtures.appendingPathComponent("validate-omh.py").path] + inputs.flatMap { [$0.0, $0.1.path] }, executable: "python3")
        return Report(status: run.status, output: run.standardOutput + run.standardError)
    }

    /// A fresh temporary directory owned by one test.
    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("uplink-test-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
