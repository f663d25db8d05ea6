import Foundation
import Testing
@testable import Uplink

/// The Observation and data point carry exactly the fields and values of contract §4–5.
@Suite("Uplink Observation shape")
struct ObservationShapeTests {
    let configuration = EncoderConfiguration(
        defaultPatientID: "40006", deviceID: "70007",
        options: EncodingOptions(defaultDatasheet: SensorDatasheet(manufacturer: "Polar", model: "H10")))

    func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("a 72 bpm sample becomes the contract's Observation, with header.uuid = sample id in lower case")
    func contractShape() throws {
        let id = UUID(uuidString: "3F2B8C1E-9A4D-4E5F-8B6A-1C2D3E4F5A6B")!
        let encoder = UploadEncoder(configuration: configuration)
        let upload = encoder.encode([Samples.sample(id: id, bpm: 72)])
        let observation = try encoder.observation(for: try #require(upload.items.first))
        #expect(upload.items.count == 1)
        #expect(observation.resourceType == "Observation" && observation.status == "final")
        #expect(observation.identifier == [FHIRIdentifier(system: "urn:ietf:rfc:3986", value: "urn:uuid:3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b")])
        #expect(observation.code.coding == [FHIRCoding(system: "https://w3id.org/openmhealth", code: "omh:heart-rate:2.0", display: "Heart rate")])
        #expect(observation.subject.reference == "Patient/40006")
        #expect(observation.device.reference == "Device/70007")
        #expect(observation.effectiveDateTime == "2026-11-22T08:00:01.250Z")
        #expect(observation.valueAttachment.contentType == "application/json")

        let data = try #require(observation.valueAttachment.data)
        let point = try json(try #require(Data(base64Encoded: data)))
        let header = try #require(point["header"] as? [String: Any])
        #expect(header["uuid"] as? String == "3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b")
        #expect(header["source_creation_date_time"] as? String == "2026-11-22T08:00:01.250Z")
        #expect(header["modality"] as? String == "sensed")
        #expect(header["schema_id"] as? [String: String] == ["namespace": "omh", "name": "heart-rate", "version": "2.0"])
        #expect(
            header["external_datasheets"] as? [[String: String]] == [
                ["datasheet_type": "manufacturer", "datasheet_reference": "Polar"],
                ["datasheet_type": "model", "datasheet_reference": "H10"],
            ])
        let body = try #require(point["body"] as? [String: Any])
        let heartRate = try #require(body["heart_rate"] as? [String: Any])
        #expect((heartRate["value"] as? NSNumber)?.doubleValue == 72 && heartRate["unit"] as? String == "beats/min")
        #expect(String(decoding: try #require(Data(base64Encoded: data)), as: UTF8.self).contains(#""heart_rate":{"unit":"beats/min","value":72}"#))
        #expect(body["effective_time_frame"] as? [String: String] == ["date_time": "2026-11-22T08:00:01.250Z"])
        #expect(body["descriptive_statistic"] == nil)
    }

    @Test("the Bundle is a batch of POST Observation entries, in sample order")
    func bundleShape() throws {
        let encoder = UploadEncoder(configuration: configuration)
        let samples = Samples.random(count: 5, seed: 7)
        let data = try Data(encoder.bundleBytes(encoder.encode(samples).items))
        let bundle = try json(data)
        #expect(bundle["resourceType"] as? String == "Bundle")
        #expect(bundle["type"] as? String == "batch")
        let entries = try #require(bundle["entry"] as? [[String: Any]])
        #expect(entries.count == 5)
        for (entry, sample) in zip(entries, samples) {
            #expect(entry["request"] as? [String: String] == ["method": "POST", "url": "Observation"])
            let identifier = (entry["resource"] as? [String: Any])?["identifier"] as? [[String: String]]
            #expect(identifier?.first?["value"] == "urn:uuid:" + sample.id.uuidString.lowercased())
        }
    }

    @Test("non-ASCII in a manufacturer name is sent as \\u escapes and decodes back to the same text")
    func asciiOnly() throws {
        let name = "Garmin – Fénix ♥ 𝄞"
        let encoder = UploadEncoder(
            configuration: .init(
                defaultPatientID: "1", deviceID: "2", options: .init(defaultDatasheet: SensorDatasheet(manufacturer: name, model: nil))))
        let observation = try encoder.observation(for: try #require(encoder.encode([Samples.sample()]).items.first))
        let data = try #require(observation.valueAttachment.data)
        let raw = try #require(Data(base64Encoded: data))
        #expect(raw.allSatisfy { $0 < 0x80 })
        #expect(String(decoding: raw, as: UTF8.self).contains("\\u2665"))
        #expect(String(decoding: raw, as: UTF8.self).contains("\\ud834\\udd1e"))
        let point = try JSONDecoder().decode(OMHDataPoint<HeartRateBody>.self, from: raw)
        #expect(point.header.externalDatasheets?.first?.datasheetReference == name)
    }

    @Test("samples whose strap reports no skin contact are not sent as heart rates, and are counted")
    func noContactSkipped() throws {
        let encoder = UploadEncoder(configuration: .init(defaultPatientID: "1", deviceID: "2", options: .init(includeRRIntervals: true)))
        let off = Samples.sample(bpm: 0, contact: .notDetected, rr: [800])
        let offWithRate = Samples.sample(bpm: 65, contact: .notDetected)
        let on = Samples.sample(bpm: 70, contact: .notSupported, rr: [800, 820])
        let upload = encoder.encode([off, on, offWithRate])
        #expect(upload.noContactSampleIDs == [off.id, offWithRate.id])
        #expect(upload.items.count == 3)
        #expect(upload.items.allSatisfy { $0.sampleIDs == [on.id] })
    }

    @Test("a sample's own patient binding wins over the enrolment's patient")
    func patientBinding() throws {
        let encoder = UploadEncoder(configuration: configuration)
        let observation = try encoder.observation(for: try #require(encoder.encode([Samples.sample(patient: "40077")]).items.first))
        #expect(observation.subject.reference == "Patient/40077")
    }

    @Test("encoding the same samples twice gives byte-identical Bundles (retries hit 409, not duplicates)")
    func deterministic() throws {
        let samples = Samples.random(count: 200, seed: 99)
        for resolution in [UploadResolution.everySample, .window(seconds: 60)] {
            let encoder = UploadEncoder(
                configuration: .init(
                    defaultPatientID: "1", deviceID: "2", options: .init(resolution: resolution, includeRRIntervals: true)))
            let first = try Data(encoder.bundleBytes(encoder.encode(samples).items))
            let second = try Data(encoder.bundleBytes(encoder.encode(samples).items))
            #expect(first == second)
        }
    }
}
