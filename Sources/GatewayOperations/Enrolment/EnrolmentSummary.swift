#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Uplink

/// The lines `enroll` and `enroll --status` print: who, which device, until when. No secrets.
package struct EnrolmentSummary {
    /// The lines to print, in order.
    package let lines: [String]

    /// What `credentials` say, with the token's remaining life counted from `now`; never a token.
    package init(_ credentials: Credentials, now: Date = Date()) {
        let expiry = Date(timeIntervalSince1970: TimeInterval(credentials.expiresAt))
        var lines = [
            "kind: \(credentials.kind.rawValue)",
            "fhir endpoint: \(credentials.server.fhirBatchURL)",
            "patient id: \(credentials.patientID ?? "(per strap binding)")",
            "device id: \(credentials.deviceID ?? "(none: pass --device ID)")",
            "token expires: \(expiry.formatted(.iso8601))\(expiry < now ? " (expired; renewed on next upload)" : "")",
        ]
        if let reason = credentials.reenrolmentRequired {
            lines.append("state: RE-ENROLMENT REQUIRED: \(reason); uploads are stopped, samples keep buffering")
        } else {
            lines.append("state: ok")
        }
        self.lines = lines
    }
}
