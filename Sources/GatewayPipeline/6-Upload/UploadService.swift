#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import GatewayStatus
import Logging
import OfflineQueue
import ServiceLifecycle
import Uplink

/// The uploader loop: leases the oldest pending samples, hands them to JHE, and settles each
/// record by its outcome. It gathers samples for `interval` into one round (at once while full
/// batches wait) and sleeps while the queue is empty, until a commit raises `committed`. The
/// only feedback in the data path is here: a record leaves the queue when JHE has it (201, or
/// 409 for a re-sent one).
///
/// A round keeps its samples until every one is settled, retrying the unsettled ones with a
/// growing pause, so an outage never reorders the backlog: it drains in capture order. This is
/// the only retry loop of the upload path (the client makes one attempt per call). While the
/// server cannot be reached at all, a cheap anonymous probe runs every `probeInterval` during
/// the long pauses, so uploads resume within seconds of the server's return however long the
/// outage, without sending full batches at a server that is down. Records JHE refuses (a schema
/// error, a withdrawn consent) become dead letters with the server's reason, for
/// `edge-gateway queue retry-dead` once the cause is fixed.
package struct UploadService: Service {
    let queue: OfflineQueue
    let client: JHEClient
    let tokens: TokenManager
    let counters: DaemonCounters
    let logger: Logger
    /// Raised when a commit adds samples to the queue (the intake, clock repair).
    var committed = ChangeSignal()
    /// Samples per round (one Bundle at the configured batch size).
    var batchSize = 100
    /// `[uplink] interval_s`: samples are gathered this long into one round, unless a full
    /// batch is waiting.
    var interval: Duration = .seconds(10)
    /// With nothing to upload the uploader sleeps until a commit; it also looks at the queue this
    /// often, for records other processes made pending (`queue retry-dead`, `queue import`)
    /// when they could not signal the daemon (they do: ``RunningDaemon/nudge(stateDirectory:)``).
    var recheckInterval: Duration = .seconds(300)
    /// The pause after each failed attempt of a round: from 5 s, doubling, up to 5 minutes,
    /// jittered (the daemon's one `Backoff`); never shorter than the server's `Retry-After`.
    var backoff = Backoff(initial: .seconds(5), maximum: .seconds(300))
    /// How often the server is probed while it cannot be reached.
    var probeInterval: Duration = .seconds(5)

    /// Every field given: the memberwise initializer, which Swift would make only `internal`.
    package init(
        queue: OfflineQueue,
        client: JHEClient,
        tokens: TokenManager,
        counters: DaemonCounters,
        logger: Logger,
        committed: ChangeSignal = ChangeSignal(),
        batchSize: Int = 100,
        interval: Duration = .seconds(10),
        recheckInterval: Duration = .seconds(300),
        backoff: Backoff = Backoff(initial: .seconds(5), maximum: .seconds(300)),
        probeInterval: Duration = .seconds(5),
        onAttempt: @escaping @Sendable (UploadAttempt) -> Void = { _ in },
        beforePause: @escaping @Sendable () -> Void = {}
    ) {
        self.queue = queue
        self.client = client
        self.tokens = tokens
        self.counters = counters
        self.logger = logger
        self.committed = committed
        self.batchSize = batchSize
        self.interval = interval
        self.recheckInterval = recheckInterval
        self.backoff = backoff
        self.probeInterval = probeInterval
        self.onAttempt = onAttempt
        self.beforePause = beforePause
    }
    /// Called after every round that had samples (the upload history).
    var onAttempt: @Sendable (UploadAttempt) -> Void = { _ in }
    /// Called when the uploader is about to wait after rounds that had samples: what they held is
    /// freed by then (the daemon gives its pages back). Not between full rounds, which follow at
    /// once, nor after empty ones.
    var beforePause: @Sendable () -> Void = {}

    /// Uploads what the queue holds, in rounds, until the service group shuts down.
    package func run() async throws {
        var episode = UplinkEpisode(logger: logger, counters: counters)
        await releaseLeases(nil, "leased by a previous run")
        var uploadedSincePause = false
        while !Task.isCancelledOrShuttingDown {
            let started = ContinuousClock.now
            committed.acknowledge()
            let leased: Int
            do {
                leased = try await uploadRound(&episode)
            } catch {
                logger.error("the upload queue could not be read; will retry", metadata: ["error": "\(error)"])
                leased = 0
            }
            _ = await refreshTokenStatus()
            uploadedSincePause = uploadedSincePause || leased > 0
            if leased == batchSize { continue }
            if uploadedSincePause { beforePause() }
            uploadedSincePause = false
            await committed.wait(upTo: recheckInterval)
            let rest = ContinuousClock.now.duration(to: started + interval)
            if rest > .zero { await ServicePause.sleep(for: rest) }
        }
    }

    /// Leases one batch and settles it; returns how many records it leased.
    private func uploadRound(_ episode: inout UplinkEpisode) async throws -> Int {
        let lease = try await queue.lease(max: batchSize)
        guard !lease.records.isEmpty else { return 0 }
        var pending: [(id: Int64, sample: HeartRateSample)] = []
        for record in lease.records {
            do throws(SampleRecordError) {
                pending.append((record.id, try SampleRecordCodec.sample(from: record)))
            } catch {
                try await queue.reject([record.id], reason: "\(error.code.rawValue): \(error.message)")
            }
        }
        var random = SystemRandomNumberGenerator()
        var failures = 0
        var retriedEarly = false
        while !pending.isEmpty {
            let delivery: Delivery
            (pending, delivery) = try await attempt(pending, episode: &episode)
            let waitingForEnrolment = await refreshTokenStatus()
            guard !pending.isEmpty else { break }
            guard !Task.isCancelledOrShuttingDown else {
                await releaseLeases(pending.map(\.id), "not delivered before shutdown")
                break
            }
            if waitingForEnrolment {
                await ServicePause.sleep(for: backoff.initial)
                continue
            }
            let wait = max(backoff.delay(attempt: failures, using: &random), delivery.retryAfter ?? .zero)
            failures += 1
            if delivery.serverUnreachable {
                retriedEarly = await waitForServer(upTo: wait, trustFirstProbe: !retriedEarly)
            } else {
                retriedEarly = false
                await ServicePause.sleep(for: wait)
            }
        }
        return lease.records.count
    }

    /// Returns leased samples to pending, so the next run sends them at once instead of after
    /// their lease expires (two minutes): the uploader is the queue's only consumer. A failure
    /// only delays them until the expiry.
    private func releaseLeases(_ ids: [Int64]?, _ why: String) async {
        do {
            let released = try await queue.release(ids)
            if released > 0 { logger.info("samples back in the queue", metadata: ["samples": "\(released)", "why": "\(why)"]) }
        } catch {
            logger.warning("leased samples wait for their lease to expire", metadata: ["error": "\(error)"])
        }
    }

    /// Waits up to `limit`, probing every `probeInterval`, and ends the wait early (returning
    /// true) as soon as the server answers again. A server that answers the very first probe
    /// ends the wait only if `trustFirstProbe`: after an early retry has failed anyway, the
    /// trouble is not reachability (a proxy failing only the FHIR path, say), and the rest of
    /// the pause is waited out, so such a server is not sent a full batch every few seconds.
    private func waitForServer(upTo limit: Duration, trustFirstProbe: Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        var seenDown = false
        while !Task.isCancelledOrShuttingDown {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            await ServicePause.sleep(for: min(probeInterval, left))
            guard ContinuousClock.now < deadline, !Task.isCancelledOrShuttingDown else { return false }
            let answers = await client.probe()
            if answers && (seenDown || trustFirstProbe) {
                logger.info("the server answers again; retrying the upload now")
                return true
            }
            if answers {
                await ServicePause.sleep(for: deadline - ContinuousClock.now)
                return false
            }
            seenDown = true
        }
        return false
    }

    /// One delivery of `samples`; returns the ones to try again and what the client learnt.
    private func attempt(
        _ samples: [(id: Int64, sample: HeartRateSample)], episode: inout UplinkEpisode
    ) async throws -> ([(id: Int64, sample: HeartRateSample)], Delivery) {
        let startedAt = Date()
        let start = ContinuousClock.now
        let delivery = await cancelWhenGracefulShutdown { await client.delivery(of: samples.map(\.sample)) }
        let outcomes = delivery.outcomes
        let latency = ContinuousClock.now - start
        var settled: [Int64] = []
        var refused: [String: [Int64]] = [:]
        var again: [(id: Int64, sample: HeartRateSample)] = []
        for (entry, outcome) in zip(samples, outcomes) {
            switch outcome {
            case .delivered, .duplicate, .skipped: settled.append(entry.id)
            case .rejected(let reason), .forbidden(let reason): refused[reason, default: []].append(entry.id)
            case .retryLater: again.append(entry)
            }
        }
        try await queue.ack(settled)
        for (reason, ids) in refused {
            try await queue.reject(ids, reason: reason)
            logger.warning(
                "the server refused samples; they are dead letters now (`edge-gateway queue dead`)",
                metadata: [
                    "samples": "\(ids.count)", "reason": "\(reason)",
                ])
        }
        let perSample = zip(samples, outcomes).map { ($0.sample.sensor, $1) }
        counters.uploaded(perSample, latency: latency, at: Date())
        onAttempt(UploadAttempt(outcomes: outcomes, startedAt: startedAt, latency: latency))
        if Task.isCancelledOrShuttingDown {
            logger.debug("upload round abandoned for shutdown; its samples stay queued", metadata: ["samples": "\(again.count)"])
        } else if let reason = outcomes.lazy.compactMap(\.retryReason).first {
            episode.failed(reason, at: startedAt, unsettled: again.count)
        } else {
            episode.succeeded(at: Date())
            logger.debug("upload round complete", metadata: ["samples": "\(samples.count)", "seconds": "\(latency.seconds)"])
        }
        return (again, delivery)
    }

    /// Publishes the token state; true while uploads wait for `edge-gateway enroll` (not
    /// enrolled, or the grant is lost). Those waits do not grow: the credentials file is read
    /// again every `backoff.initial`, so uploads resume within seconds of an enrolment.
    private func refreshTokenStatus() async -> Bool {
        let credentials = try? await tokens.current()
        let refreshes = await tokens.renewalCount
        let before = counters.read(\.reenrolmentRequired)
        counters.refresh { $0.uplinkCredentials(credentials, refreshes: refreshes) }
        if let reason = credentials?.reenrolmentRequired, reason != before {
            logger.error(
                "re-enrolment required: uploads stop, samples keep buffering",
                metadata: ["reason": "\(reason)", "fix": "run `edge-gateway enroll` with a new invitation link"])
        }
        return credentials == nil || credentials?.reenrolmentRequired != nil
    }
}

extension Outcome {
    /// Why the sample waits for another attempt, if it does.
    var retryReason: String? {
        if case .retryLater(let reason) = self { return reason }
        return nil
    }
}
