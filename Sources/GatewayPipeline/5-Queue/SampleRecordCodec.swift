#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import OfflineQueue
import OutputFormats

/// The one place that fixes how a heart-rate sample is stored as an opaque queue record: the
/// stream key is the strap's address, the capture time is the sample's wall-clock time, and the
/// payload is written as version 2, the compact binary form (`HeartRateSample.binaryEncoded()`,
/// about 70 bytes). Version 1, the sample's JSON (about 320 bytes), is what earlier builds
/// wrote; queues holding it exist in the field, so it is still read. The daemon writes records
/// through here and every reader decodes them through here.
package enum SampleRecordCodec {
    /// Version 1: the sample's own JSON (`HeartRateSample`'s Codable form). Read only.
    static let jsonVersion = 1
    /// Version 2: `HeartRateSample.binaryEncoded()`.
    static let binaryVersion = 2
    /// The payload format written today.
    static let currentVersion = binaryVersion

    /// The record to append for `sample`.
    static func record(for sample: HeartRateSample) throws(SampleEncodingError) -> NewRecord {
        NewRecord(
            payload: Data(try sample.binaryEncoded()), stream: sample.sensor.description,
            captureTime: sample.captured.wallClockNanoseconds, version: currentVersion)
    }

    /// The sample stored in `record`, whichever version wrote it.
    package static func sample(from record: QueuedRecord) throws(SampleRecordError) -> HeartRateSample {
        do {
            switch record.version {
            case binaryVersion: return try HeartRateSample(binary: record.payload)
            case jsonVersion: return try JSONDecoder().decode(HeartRateSample.self, from: record.payload)
            default: break
            }
        } catch {
            throw SampleRecordError(
                code: .undecodable, message: "record \(record.id) (payload version \(record.version)) is not a heart-rate sample: \(error)")
        }
        throw SampleRecordError(
            code: .unknownVersion,
            message:
                "record \(record.id) has payload version \(record.version); this edge-gateway reads versions \(jsonVersion) (JSON) and \(binaryVersion) (binary)"
        )
    }
}

/// Why a record could not be read as a sample.
package struct SampleRecordError: CodedError, Hashable {
    /// Stable identifiers; dead letters keep them in their reason.
    package enum Code: String, Sendable, Hashable {
        /// The payload is damaged or is not a sample in the version its record names.
        case undecodable = "queue.undecodable-record"
        /// A version this build does not read: the queue was written by a newer one.
        case unknownVersion = "queue.unknown-record-version"
    }

    /// The stable identifier.
    package let code: Code
    /// What was wrong with which record.
    package let message: String
}
