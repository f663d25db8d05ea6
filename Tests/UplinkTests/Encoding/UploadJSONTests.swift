import Foundation
import GatewayTestSupport
import Testing
@testable import Uplink

/// The hand-written JSON of the upload is byte for byte what `JSONEncoder` wrote before it, and
/// for the OMH payload every non-ASCII character escaped afterwards, so a gateway upgraded
/// mid-outage re-sends identical Observations.
@Suite("Uplink JSON")
struct UploadJSONTests {
    @Test("every Observation and Bundle the encoder builds, at every resolution, equals JSONEncoder's bytes for the same values")
    func uploadsMatchJSONEncoder() throws {
        var random = SplitMix64(seed: 0x5EED_0018)
        let resolutions: [UploadResolution] = [.everySample, .window(seconds: 60), .window(seconds: 300)]
        for round in 0 ..< 24 {
            let options = EncodingOptions(
                resolution: resolutions[round % resolutions.count], includeRRIntervals: round % 2 == 0,
                dropNoContact: round % 4 < 2,
                defaultDatasheet: SensorDatasheet(manufacturer: JSONEncoderReference.randomString(&random), model: round % 3 == 0 ? nil : "H10"))
            let encoder = UploadEncoder(
                configuration: EncoderConfiguration(
                    defaultPatientID: JSONEncoderReference.randomString(&random), deviceID: JSONEncoderReference.randomString(&random), options: options))
            let samples = Samples.random(count: 40, seed: UInt64(round))
            let items = encoder.encode(samples).items
            let observations = try items.map { try encoder.observation(for: $0) }
            #expect(!observations.isEmpty)
            for observation in observations {
                try expectPayloadMatchesJSONEncoder(observation)
            }
            #expect(try Data(encoder.bundleBytes(items)) == JSONEncoderReference.encoder.encode(FHIRBatchBundle(observations: observations)))
        }
    }

    private func expectPayloadMatchesJSONEncoder(_ observation: FHIRObservation) throws {
        let base64 = try #require(observation.valueAttachment.data)
        let payload = try #require(Data(base64Encoded: base64))
        let reencoded: Data
        if observation.code.coding.first?.code == OMHSchemaID.rrInterval.code {
            reencoded = try JSONEncoderReference.encoder.encode(JSONDecoder().decode(OMHDataPoint<RRIntervalBody>.self, from: payload))
        } else {
            reencoded = try JSONEncoderReference.encoder.encode(JSONDecoder().decode(OMHDataPoint<HeartRateBody>.self, from: payload))
        }
        #expect(Array(payload) == JSONEncoderReference.asciiEscaped(reencoded))
    }
}
