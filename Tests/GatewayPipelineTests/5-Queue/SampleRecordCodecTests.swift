import Foundation
import GATTHeartRate
@testable import GatewayPipeline
import OfflineQueue
import PipelineTestSupport
import Testing

@Suite("SampleRecordCodec")
struct SampleRecordCodecTests {
    static let sample = SampleFixtures.sample(3)

    static func stored(_ record: NewRecord, id: Int64 = 42) -> QueuedRecord {
        QueuedRecord(id: id, payload: record.payload, stream: record.stream, captureTime: record.captureTime, version: record.version)
    }

    @Test("writes version 2, the binary form, keyed by the strap address and the wall-clock capture time")
    func writesBinary() throws {
        let record = try SampleRecordCodec.record(for: Self.sample)
        #expect(record.version == 2)
        #expect(Array(record.payload) == (try Self.sample.binaryEncoded()))
        #expect(record.payload.count < 80)
        #expect(record.stream == "F0:1D:2E:3C:4B:5A")
        #expect(record.captureTime == 1_795_000_003_000_000_000)
        #expect(try SampleRecordCodec.sample(from: Self.stored(record)) == Self.sample)
    }

    @Test("still reads version 1 records (the sample's JSON) written by earlier builds")
    func readsJSON() throws {
        let json = try JSONEncoder().encode(Self.sample)
        let record = NewRecord(payload: json, stream: "F0:1D:2E:3C:4B:5A", captureTime: 1, version: 1)
        #expect(try SampleRecordCodec.sample(from: Self.stored(record)) == Self.sample)
    }

    @Test("a damaged payload and an unknown version fail with their own codes, naming the record")
    func failures() throws {
        var damaged = try SampleRecordCodec.record(for: Self.sample)
        damaged.payload.removeLast()
        let undecodable = #expect(throws: SampleRecordError.self) { try SampleRecordCodec.sample(from: Self.stored(damaged, id: 7)) }
        #expect(undecodable?.code.rawValue == "queue.undecodable-record")
        #expect(undecodable?.message.hasPrefix("record 7 (payload version 2) is not a heart-rate sample: ") == true)
        #expect(undecodable?.message.contains("truncated") == true)

        var swapped = try SampleRecordCodec.record(for: Self.sample)
        swapped.version = 1
        let mislabelled = #expect(throws: SampleRecordError.self) { try SampleRecordCodec.sample(from: Self.stored(swapped)) }
        #expect(mislabelled?.code == .undecodable)

        swapped.version = 3
        let unknown = #expect(throws: SampleRecordError.self) { try SampleRecordCodec.sample(from: Self.stored(swapped)) }
        #expect(unknown?.code.rawValue == "queue.unknown-record-version")
        #expect(unknown?.message == "record 42 has payload version 3; this edge-gateway reads versions 1 (JSON) and 2 (binary)")
    }
}
