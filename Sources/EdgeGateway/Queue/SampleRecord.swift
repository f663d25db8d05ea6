import Foundation
import GATTHeartRate
import OfflineQueue

/// The one place that fixes how a heart-rate sample is stored as an opaque queue record:
/// version 1 is the sample's own JSON (`HeartRateSample`'s Codable form), the stream key is the
/// strap's address, and the capture time is the sample's wall-clock time. The daemon writes
/// records through here and every reader decodes them through here.
enum SampleRecord {
    /// The payload format written today.
    static let currentVersion = 1

    /// Why a record could not be read as a sample.
    struct DecodingFailure: Error, CustomStringConvertible {
        /// Stable identifier.
        let code: String
        /// What was wrong with which record.
        let message: String
        var description: String { message }
    }

    /// The record to append for `sample`.
    static func record(for sample: HeartRateSample) throws -> NewRecord {
        NewRecord(
            payload: try JSONEncoder().encode(sample), stream: sample.sensor.description,
            captureTime: sample.captured.wallClockNanoseconds, version: currentVersion)
    }

    /// The sample stored in `record`.
    static func sample(from record: QueuedRecord) throws(DecodingFailure) -> HeartRateSample {
        guard record.version == currentVersion else {
            throw DecodingFailure(code: "unknown-record-version", message: "record \(record.id) has payload version \(record.version); this edge-gateway reads version \(currentVersion)")
        }
        do {
            return try JSONDecoder().decode(HeartRateSample.self, from: record.payload)
        } catch {
            throw DecodingFailure(code: "undecodable-record", message: "record \(record.id) is not a heart-rate sample: \(error)")
        }
    }
}
