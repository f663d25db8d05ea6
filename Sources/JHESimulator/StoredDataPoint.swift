import Foundation

/// One stored OMH data point as the simulator's callers check it: which sample it is (the
/// header's uuid, which the gateway sets to the sample's id) and when it was measured.
package struct StoredDataPoint: Sendable, Hashable {
    /// `header.uuid`, or `nil` when it is missing or not a UUID.
    package let uuid: UUID?
    /// `body.effective_time_frame.date_time` as stored, or `nil` when missing.
    package let dateTime: String?
    /// The data point's JSON text, for messages about a point that lacks a field.
    package let json: String

    init(payload: Data) {
        let point = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        let header = point?["header"] as? [String: Any]
        let frame = (point?["body"] as? [String: Any])?["effective_time_frame"] as? [String: Any]
        uuid = (header?["uuid"] as? String).flatMap(UUID.init(uuidString:))
        dateTime = frame?["date_time"] as? String
        json = String(decoding: payload, as: UTF8.self)
    }
}
