import Foundation
@testable import Uplink

/// Forwards to a real transport after rewriting chosen entries of an outgoing FHIR Bundle,
/// to make the real simulator see a malformed entry (the encoder itself never makes one).
struct BundleRewritingTransport: HTTPTransport {
    let base: any HTTPTransport
    /// Rewrites one entry's resource; returns it unchanged to leave it alone.
    let rewrite: @Sendable (_ resource: [String: Any]) -> [String: Any]

    func send(_ request: TransportRequest, timeout: Duration) async throws(UplinkError) -> TransportResponse {
        var request = request
        if request.url.hasSuffix("/FHIR/R5/"), let body = request.body,
            var bundle = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let entries = bundle["entry"] as? [[String: Any]]
        {
            bundle["entry"] = entries.map { entry in
                var entry = entry
                entry["resource"] = rewrite(entry["resource"] as? [String: Any] ?? [:])
                return entry
            }
            request.body = (try? JSONSerialization.data(withJSONObject: bundle)).map(Array.init)
        }
        return try await base.send(request, timeout: timeout)
    }

    /// Rewrites the OMH payload inside a resource.
    static func rewritingPayload(_ resource: [String: Any], _ change: (inout [String: Any]) -> Void) -> [String: Any] {
        var resource = resource
        guard var attachment = resource["valueAttachment"] as? [String: Any],
            let data = (attachment["data"] as? String).flatMap({ Data(base64Encoded: $0) }),
            var point = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return resource }
        change(&point)
        attachment["data"] = (try? JSONSerialization.data(withJSONObject: point))?.base64EncodedString()
        resource["valueAttachment"] = attachment
        return resource
    }

    /// The `bpm` value of a resource's heart-rate payload, if any.
    static func bpm(_ resource: [String: Any]) -> Int? {
        guard let data = ((resource["valueAttachment"] as? [String: Any])?["data"] as? String).flatMap({ Data(base64Encoded: $0) }),
            let point = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        return (((point["body"] as? [String: Any])?["heart_rate"] as? [String: Any])?["value"] as? NSNumber)?.intValue
    }
}
