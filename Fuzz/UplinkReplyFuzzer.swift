#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayTestSupport
@testable import Uplink

/// libFuzzer entry point (`make fuzz`) for what a server sends back: the batch reply to
/// `POST /FHIR/R5/` and the token endpoint's reply. The input is a status (2 bytes, big-endian,
/// folded into 100…599), the number of entries the request had (1 byte), then the body.
///
/// Every input must be classified without trapping, and the classification must never
/// acknowledge what the server did not answer: samples leave the queue only on a 200 whose
/// readable Bundle holds exactly one entry per sample sent. A token taken from a reply must
/// have a lifetime from 1 s to a year whose expiry cannot overflow, whatever the clock says.
/// The gateway's own reader of batch replies reads only what `JSONDecoder` reads, as it reads it.
@_cdecl("LLVMFuzzerTestOneInput")
public func uplinkReplyFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size >= 3, let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let status = 100 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 500
    let sent = Int(bytes[2])
    let reply = TransportResponse(status: status, headers: [("Retry-After", String(decoding: bytes.prefix(12), as: UTF8.self))], body: Data(bytes.dropFirst(3)))

    switch BatchReply.classify(reply, entryCount: sent, token: "fuzz") {
    case .entries(let outcomes):
        precondition(status == 200, "entries from HTTP \(status)")
        precondition(outcomes.count == sent, "\(outcomes.count) outcomes for \(sent) entries sent")
        let bundle = FHIRBatchResponse.decode(reply.body)
        precondition(bundle?.resourceType == "Bundle" && bundle?.entry?.count == sent, "acknowledged an unreadable reply")
    case .transient(_, let retryAfter, _):
        if let retryAfter { precondition(retryAfter >= .zero, "negative Retry-After \(retryAfter)") }
    case .unauthorized, .wholeRequestFailed, .settleLater:
        break
    }

    if let read = BatchResponseReader.read(reply.body) {
        guard let reference = FHIRBatchResponse.decode(reply.body) else { preconditionFailure("read a reply JSONDecoder refuses") }
        precondition(read.resourceType == reference.resourceType, "resourceType \(read.resourceType)")
        let entries = read.entries?.map { [$0.status ?? "-", $0.diagnostics] }
        precondition(entries == reference.statuses?.map { [$0.status ?? "-", $0.diagnostics] }, "entries read otherwise")
    }

    do {
        let token = try TokenEndpoint.interpret(reply, host: "jhe.example.org", clientKeyUsed: bytes[2] & 1 == 1, what: "fuzzing")
        precondition(status == 200, "a token from HTTP \(status)")
        precondition((1 ... 365 * 24 * 3600).contains(token.lifetime), "lifetime \(token.lifetime)")
        for now in [Int64.min, -1, 0, 1_800_000_000, Int64.max - 1, Int64.max] {
            _ = token.expiresAt(receivedAt: now)
        }
    } catch {
        _ = error.uplinkError(invalidGrant: UplinkError(.reenrolmentRequired, "invalid_grant")).description
    }
    return 0
}
