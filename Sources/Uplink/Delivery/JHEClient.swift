import GATTHeartRate
import ProcessThreads
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Delivers heart-rate samples to JHE and says, per sample, what the queue should do with it.
///
/// Batches of `batchSize` entries go to `POST /FHIR/R5/`; replies are read per entry (201 →
/// delivered, 409 → duplicate, 400/422 → rejected, 403 → dead-lettered: consent or permission
/// missing). A 401 renews the token once (single flight, through `TokenManager`) and re-posts;
/// a whole-request 400/500 is confirmed by one re-post after `poisonConfirmationPause`, then the
/// batch is split in halves until the poison entry stands alone. That is all it repeats: 429,
/// other 5xx, timeouts and connection errors end the call at once with `retryLater`, and
/// `Delivery` tells the caller's retry loop (the daemon's uploader, the only one) how long the
/// server asked it to wait and whether the server was reachable at all, so the first failure of
/// an outage is seen and logged at once.
package final class JHEClient: Sendable {
    private let tokens: TokenManager
    private let transport: any HTTPTransport
    private let configuration: DeliveryConfiguration
    private let sleep: @Sendable (Duration) async -> Void

    /// A client uploading with `tokens`' credentials through `transport`.
    package init(
        tokens: TokenManager, transport: any HTTPTransport, configuration: DeliveryConfiguration = DeliveryConfiguration(),
        sleep: @escaping @Sendable (Duration) async -> Void = { try? await ProcessExecutor.sleep(for: $0) }
    ) {
        self.tokens = tokens
        self.transport = transport
        self.configuration = configuration
        self.sleep = sleep
    }

    /// One outcome per sample, in the order given.
    package func deliver(_ samples: [HeartRateSample]) async -> [Outcome] {
        await delivery(of: samples).outcomes
    }

    /// One outcome per sample, in the order given, with what a retry loop needs to know about
    /// the ones left unsettled (`Retry-After`, whether the server was reachable at all).
    package func delivery(of samples: [HeartRateSample]) async -> Delivery {
        let credentials: Credentials
        do {
            credentials = try await tokens.current()
            _ = try await tokens.server()
        } catch {
            return Delivery(outcomes: samples.map { _ in .retryLater(reason: error.description) })
        }
        if let reason = credentials.reenrolmentRequired {
            return Delivery(outcomes: samples.map { _ in .retryLater(reason: "re-enrolment required: \(reason); run `edge-gateway enroll`") })
        }
        guard let deviceID = credentials.deviceID else {
            return Delivery(
                outcomes: samples.map { _ in .retryLater(reason: "no data source (device) id is configured; run `edge-gateway enroll … --device ID`") })
        }
        var outcomes: [UUID: Outcome] = [:]
        let unbound = samples.filter { $0.patientID == nil && credentials.patientID == nil }
        for sample in unbound {
            outcomes[sample.id] = .forbidden(reason: "strap \(sample.sensor) is bound to no patient and the enrolment has no default patient")
        }
        let encoder = UploadEncoder(
            configuration: EncoderConfiguration(
                defaultPatientID: credentials.patientID ?? "", deviceID: deviceID, options: configuration.encoding))
        let upload = encoder.encode(samples.filter { outcomes[$0.id] == nil })
        for id in upload.noContactSampleIDs { outcomes[id] = .skipped(reason: "the strap reported no skin contact") }
        var hints = Delivery(outcomes: [])
        var stopReason: String?
        for start in stride(from: 0, to: upload.items.count, by: configuration.batchSize) {
            let batch = Array(upload.items[start ..< min(start + configuration.batchSize, upload.items.count)])
            let results =
                if let stopReason {
                    batch.map { _ in Outcome.retryLater(reason: stopReason) }
                } else {
                    await post(batch, encoder: encoder, hints: &hints)
                }
            if stopReason == nil, case .retryLater(let reason)? = results.first, results.allSatisfy({ !$0.isSettled && $0 == results[0] }) {
                stopReason = reason
            }
            for (item, outcome) in zip(batch, results) {
                for id in item.sampleIDs where outcome.severity >= (outcomes[id]?.severity ?? -1) {
                    outcomes[id] = outcome
                }
            }
        }
        hints.outcomes = samples.map { outcomes[$0.id] ?? .retryLater(reason: "not sent") }
        return hints
    }

    /// A cheap, anonymous check that the server answers HTTP again (the OpenID configuration
    /// document, no token sent): true for any reply below 500 within `timeout`. Used between
    /// the long pauses of an outage, so uploads resume within seconds of the server's return.
    package func probe(timeout: Duration = .seconds(5)) async -> Bool {
        guard let server = try? await tokens.server() else { return false }
        let request = TransportRequest(method: "GET", url: server.url("/o/.well-known/openid-configuration"), headers: [("Accept", "application/json")])
        guard let reply = try? await transport.send(request, timeout: timeout) else { return false }
        return reply.status < 500
    }

    /// Posts one batch: settled, or left for the caller to retry.
    private func post(_ items: [EncodedUpload.Item], encoder: UploadEncoder, hints: inout Delivery) async -> [Outcome] {
        var confirmed = false
        var renewedAfter401 = false
        while true {
            switch await attemptOnce(items, encoder: encoder) {
            case .entries(let outcomes):
                return outcomes
            case .settleLater(let reason):
                return items.map { _ in .retryLater(reason: reason) }
            case .unauthorized(let token):
                if renewedAfter401 {
                    return items.map { _ in .retryLater(reason: "the server refused a freshly renewed token (HTTP 401)") }
                }
                renewedAfter401 = true
                do {
                    _ = try await tokens.tokenAfterUnauthorized(token)
                } catch {
                    return items.map { _ in .retryLater(reason: error.description) }
                }
            case .transient(let reason, let retryAfter, let unreachable):
                hints.serverUnreachable = hints.serverUnreachable || unreachable
                if let retryAfter { hints.retryAfter = max(hints.retryAfter ?? .zero, retryAfter) }
                return items.map { _ in .retryLater(reason: reason) }
            case .wholeRequestFailed(let reason):
                if !confirmed {
                    confirmed = true
                    await sleep(configuration.poisonConfirmationPause)
                } else if items.count == 1 {
                    return [.rejected(reason: "this entry alone fails the whole request: \(reason)")]
                } else {
                    let half = items.count / 2
                    let first = await post(Array(items[..<half]), encoder: encoder, hints: &hints)
                    return first + (await post(Array(items[half...]), encoder: encoder, hints: &hints))
                }
            }
        }
    }

    private func attemptOnce(_ items: [EncodedUpload.Item], encoder: UploadEncoder) async -> BatchReply {
        let token: String
        let server: ServerAddress
        do {
            token = try await tokens.accessToken()
            server = try await tokens.server()
        } catch {
            return Self.isTransient(error)
                ? .transient(reason: error.description, retryAfter: nil, unreachable: true) : .settleLater(reason: error.description)
        }
        let body: [UInt8]
        do {
            body = try encoder.bundleBytes(items)
        } catch {
            return .settleLater(reason: "could not encode the batch: \(error)")
        }
        let request = TransportRequest(
            method: "POST", url: server.fhirBatchURL,
            headers: [("Authorization", "Bearer " + token), ("Content-Type", "application/json"), ("Accept", "application/json")],
            body: body)
        do {
            let reply = try await transport.send(request, timeout: configuration.requestTimeout)
            return BatchReply.classify(reply, entryCount: items.count, token: token)
        } catch {
            return .transient(reason: error.description, retryAfter: nil, unreachable: true)
        }
    }

    private static func isTransient(_ error: UplinkError) -> Bool {
        [.connectionFailed, .timedOut].contains(error.code)
    }
}
