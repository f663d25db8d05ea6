import Foundation
import Testing
@testable import Uplink

/// Encoder output checked by python3 `jsonschema` against the real IEEE header-1.0 and OMH
/// heart-rate-2.0 / rr-interval-1.0 schemas (Fixtures/schemas, with their licences).
@Suite("Uplink encoding against the real OMH schemas")
struct SchemaValidationTests {
    let samples = "Fixtures/omh-samples"

    @Test("the contract's example and JHE's example pass, and a 'bpm' unit fails (the validator can fail)")
    func validatorSeesGoodAndBad() async throws {
        let dir = SchemaValidator.fixtures.appendingPathComponent("omh-samples")
        let good = try await SchemaValidator.validate([
            ("--point", dir.appendingPathComponent("contract-heart-rate-example.json")),
            ("--point", dir.appendingPathComponent("omh_heart-rate_2-0.json")),
        ])
        #expect(good.status == 0, "\(good.output)")
        let bad = try await SchemaValidator.validate([("--point", dir.appendingPathComponent("bpm-unit-should-fail.json"))])
        #expect(bad.status == 1, "\(bad.output)")
        #expect(bad.output.contains("beats/min"))
    }

    @Test("bundles of seeded samples pass the schemas in every mode: every sample, with RR, windowed")
    func generatedBundlesValidate() async throws {
        // UPLINK_BUNDLE_DIR=DIR keeps the Bundles, e.g. to check them with the workplace's jhe-check tool.
        let kept = ProcessInfo.processInfo.environment["UPLINK_BUNDLE_DIR"].map { URL(fileURLWithPath: $0) }
        let scratch = try kept ?? SchemaValidator.scratchDirectory()
        defer { if kept == nil { try? FileManager.default.removeItem(at: scratch) } }
        let samples = Samples.random(count: 300, seed: 0x5EED_0006)
        let modes: [(String, EncoderConfiguration)] = [
            (
                "plain",
                .init(
                    defaultPatientID: "40006", deviceID: "70007",
                    options: .init(defaultDatasheet: SensorDatasheet(manufacturer: "Polar", model: "H10")))
            ),
            ("rr", .init(defaultPatientID: "40006", deviceID: "70007", options: .init(includeRRIntervals: true))),
            (
                "window",
                .init(
                    defaultPatientID: "40006", deviceID: "70007",
                    options: .init(
                        resolution: .window(seconds: 60),
                        defaultDatasheet: SensorDatasheet(manufacturer: "Garmin – ünïcode ♥", model: nil)))
            ),
        ]
        var inputs: [(String, URL)] = []
        for (name, configuration) in modes {
            let encoder = UploadEncoder(configuration: configuration)
            let upload = encoder.encode(samples)
            #expect(!upload.items.isEmpty)
            let file = scratch.appendingPathComponent("\(name).json")
            try Data(encoder.bundleBytes(upload.items)).write(to: file)
            inputs.append(("--bundle", file))
        }
        let report = try await SchemaValidator.validate(inputs)
        #expect(report.status == 0, "\(report.output.suffix(2000))")
        #expect(report.output.contains(" 0 failed"))
    }
}
