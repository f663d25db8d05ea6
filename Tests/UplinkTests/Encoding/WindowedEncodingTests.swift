import Foundation
import Testing
@testable import Uplink

/// The windowed mode: per strap and epoch-aligned window, an average, a minimum and a maximum.
@Suite("Uplink windowed encoding")
struct WindowedEncodingTests {
    func body(_ item: EncodedUpload.Item, _ encoder: UploadEncoder) throws -> (OMHHeader, HeartRateBody) {
        let data = try #require(try encoder.observation(for: item).valueAttachment.data)
        let raw = try #require(Data(base64Encoded: data))
        let point = try JSONDecoder().decode(OMHDataPoint<HeartRateBody>.self, from: raw)
        return (point.header, point.body)
    }

    @Test("90 samples from 08:00:30 give two 60 s windows of average/minimum/maximum with time intervals")
    func twoWindows() throws {
        let start: Int64 = 1_795_334_430_000_000_000  // 2026-11-22T08:00:30Z
        let samples = (0 ..< 90).map { Samples.sample(bpm: UInt16(60 + $0 % 30), at: start + Int64($0) * 1_000_000_000) }
        let encoder = UploadEncoder(configuration: .init(defaultPatientID: "1", deviceID: "2", options: .init(resolution: .window(seconds: 60))))
        let upload = encoder.encode(samples)
        #expect(upload.items.count == 6)
        let decoded = try upload.items.map { try body($0, encoder) }
        #expect(decoded.map { $0.1.descriptiveStatistic } == ["average", "minimum", "maximum", "average", "minimum", "maximum"])
        let first = decoded[0].1.effectiveTimeFrame.timeInterval
        #expect(first?.startDateTime == "2026-11-22T08:00:00.000Z")
        #expect(first?.endDateTime == "2026-11-22T08:01:00.000Z")
        #expect(decoded[3].1.effectiveTimeFrame.timeInterval?.startDateTime == "2026-11-22T08:01:00.000Z")
        // first window: samples 0..<30 → bpm 60...89
        #expect(decoded[0].1.heartRate.value == 74.5)
        #expect(decoded[1].1.heartRate.value == 60)
        #expect(decoded[2].1.heartRate.value == 89)
        #expect(upload.items[0].sampleIDs == samples.prefix(30).map(\.id))
        #expect(upload.items[3].sampleIDs == samples.suffix(60).map(\.id))
        #expect(Set(decoded.map(\.0.uuid)).count == 6)
        #expect(try upload.items.allSatisfy { try encoder.observation(for: $0).identifier.first?.value == "urn:uuid:" + body($0, encoder).0.uuid })
    }

    @Test("a window's identifiers depend on its member samples only")
    func identityFromMembers() throws {
        let samples = Samples.random(count: 30, seed: 3)
        let encoder = UploadEncoder(configuration: .init(defaultPatientID: "1", deviceID: "2", options: .init(resolution: .window(seconds: 3600))))
        let all = try encoder.encode(samples).items.map { try encoder.observation(for: $0).identifier }
        let shuffled = try encoder.encode(samples.reversed()).items.map { try encoder.observation(for: $0).identifier }
        let fewer = try encoder.encode(Array(samples.dropLast())).items.map { try encoder.observation(for: $0).identifier }
        #expect(all == shuffled)
        #expect(Set(all.flatMap { $0 }.map(\.value)).isDisjoint(with: Set(fewer.flatMap { $0 }.map(\.value))))
    }

    @Test("resolution parses every-sample and 60s / 5m / 1h, and rejects nonsense with a typed error")
    func parsing() throws {
        #expect(try UploadResolution(parsing: "every-sample") == .everySample)
        #expect(try UploadResolution(parsing: "60s") == .window(seconds: 60))
        #expect(try UploadResolution(parsing: "5m") == .window(seconds: 300))
        #expect(try UploadResolution(parsing: " 1h ") == .window(seconds: 3600))
        for bad in ["", "0s", "60", "-5m", "25h", "1d", "fast"] {
            #expect(throws: UplinkError.self) { try UploadResolution(parsing: bad) }
        }
    }
}
