#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one `POST /FHIR/R5/` attempt came to, classified by the reply table of contract §8.
enum BatchReply {
    /// HTTP 200 with one result per entry, in request order.
    case entries([Outcome])
    /// HTTP 401: the token was refused.
    case unauthorized(token: String)
    /// HTTP 400/500 for the whole request: some entry poisons the batch.
    case wholeRequestFailed(reason: String)
    /// 429, 5xx other than 500, timeouts, connection errors: wait and retry. `unreachable`
    /// when no server answered (connection failures, timeouts, a proxy's 502/503/504).
    case transient(reason: String, retryAfter: Duration?, unreachable: Bool)
    /// Nothing to retry now (reply not matching the request, re-enrolment needed, a
    /// configuration problem): leave every sample queued.
    case settleLater(reason: String)

    /// Classifies a reply to a batch of `count` entries.
    static func classify(_ reply: TransportResponse, entryCount count: Int, token: String) -> BatchReply {
        switch reply.status {
        case 200:
            guard let bundle = BatchResponseReader.read(reply.body), bundle.resourceType == "Bundle",
                let entries = bundle.entries
            else { return .settleLater(reason: "HTTP 200 without a readable batch-response Bundle; nothing acknowledged") }
            guard entries.count == count else {
                return .settleLater(
                    reason: "the server answered \(entries.count) entries for \(count) sent; nothing acknowledged (retrying is safe: repeats get 409)")
            }
            return .entries(entries.map(outcome))
        case 401:
            return .unauthorized(token: token)
        case 400, 500:
            return .wholeRequestFailed(reason: "HTTP \(reply.status) for the whole batch: \(snippet(reply.body))")
        case 408, 429, 501 ... 599:
            return .transient(
                reason: "HTTP \(reply.status) from the server", retryAfter: RetryAfter.parse(reply.header("Retry-After")),
                unreachable: (502 ... 504).contains(reply.status))
        default:
            return .settleLater(reason: "HTTP \(reply.status) from the FHIR endpoint: check the base URL and FHIR path (\(snippet(reply.body)))")
        }
    }

    private static func outcome(_ entry: BatchResponseEntry) -> Outcome {
        var reason: String {
            let status = entry.status ?? "no status"
            return entry.diagnostics.isEmpty ? status : "\(status): \(entry.diagnostics)"
        }
        switch entry.statusCode {
        case 200, 201: return .delivered
        case 409: return .duplicate
        case 400, 422: return .rejected(reason: reason)
        case 403: return .forbidden(reason: reason)
        default: return .retryLater(reason: "entry answered \(reason)")
        }
    }

    /// The start of a body, printable ASCII only, for a reason string.
    static func snippet(_ body: Data) -> String {
        let text = String(decoding: body.prefix(300), as: UTF8.self)
            .map { $0.isASCII && !$0.isNewline ? $0 : " " }
        return text.isEmpty ? "(empty body)" : String(text)
    }
}

/// The `Retry-After` header, which 429 and 503 replies may carry.
enum RetryAfter {
    /// The delta-seconds form, at most an hour; nil for an HTTP date (JHE's stack sends none),
    /// a negative number or anything else.
    static func parse(_ header: String?) -> Duration? {
        guard let header, let seconds = Int64(header.filter { !$0.isWhitespace }), seconds >= 0 else { return nil }
        return .seconds(min(seconds, 3600))
    }
}
