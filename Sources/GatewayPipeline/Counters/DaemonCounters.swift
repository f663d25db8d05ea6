#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import GatewayStatus
import Glibc
import OfflineQueue
import Synchronization
import Uplink

/// What the daemon has seen since it started, shared by its services. Updates are synchronous
/// (a lock, not an actor), so events from one supervisor are recorded in the order they happen.
package final class DaemonCounters: Sendable {
    private let board = Mutex(CounterBoard())
    /// Raised by every update, so the status report is rewritten when (and only when) a figure
    /// may have moved.
    package let changes = ChangeSignal()
    /// The Prometheus registry `/metrics` is served from, brought up to date from the board at
    /// each scrape; only upload latencies are recorded into it as they happen.
    package let metrics = PrometheusMetrics()
    /// Beaten by every sample as it arrives (and by each status report): what sends an open
    /// console page the straps' live figures.
    package let pulse = LivePulse()

    /// Counters at zero, no strap tracked.
    package init() {}

    /// Changes the board; returns what `change` does.
    @discardableResult
    package func update<T>(_ change: (inout CounterBoard) -> T) -> T {
        defer { changes.raise() }
        return board.withLock { change(&$0) }
    }

    /// Changes the board where `change` finds something new (it returns whether it did), and
    /// raises `changes` only then: for the periodic refreshes that usually find nothing new, so
    /// an idle daemon does not rewrite its report for them.
    func refresh(_ change: (inout CounterBoard) -> Bool) {
        if board.withLock({ change(&$0) }) { changes.raise() }
    }

    /// The outcome of one upload round: counts on the board, its duration in the metrics'
    /// latency histogram.
    func uploaded(_ settled: [(sensor: BluetoothAddress, outcome: Outcome)], latency: Duration, at time: Date) {
        metrics.observeUploadLatency(latency.seconds)
        update { $0.uploaded(settled, latency: latency, at: time) }
    }

    /// Each tracked strap's heart rate over the ten minutes ending at `now` (seconds since 1970),
    /// by address, oldest reading first: read from the tallies outside the board's lock.
    package func heartRateHistory(endingAt now: Int64) -> [(address: String, readings: [(second: Int64, bpm: Int)])] {
        read { $0.tallies }.map { ($0.key.description, $0.value.readings(endingAt: now)) }.sorted { $0.address < $1.address }
    }

    /// Reads the board.
    package func read<T>(_ body: (CounterBoard) -> T) -> T {
        board.withLock { body($0) }
    }
}

/// Per strap and for the uplink: the source of `status.json`, the Prometheus metrics and the
/// systemd status line.
package struct CounterBoard: Sendable {
    private var sensors: [BluetoothAddress: GatewayStatusReport.SensorStatus] = [:]
    /// The figures each tracked strap's frames move, read into its entry for a report.
    fileprivate private(set) var tallies: [BluetoothAddress: StrapTally] = [:]
    private var uplink = GatewayStatusReport.UplinkStatus(tokenRefreshes: 0)
    /// The last upload rounds, newest last (the console's upload history).
    package private(set) var recentUploads: [UploadRound] = []
    /// The adapters' slots, as the placement last reported them.
    private(set) var adapters: [GatewayStatusReport.AdapterStatus] = []
    /// Samples held until the clock synchronises (set by clock repair).
    var samplesAwaitingClock = 0
    /// Samples the intake could not make durable (buffer full while the disk failed).
    var samplesRefused = 0
    /// The queue's storage fault under way and when it started.
    private var storageFault: (fault: String, since: Date)?
    /// While commits are slow, the last one's duration.
    private var slowCommit: Duration?

    /// Puts a bound strap on the board (or updates its binding); returns the tally its frames
    /// are counted in (the same one while it stays bound, so a re-bound strap keeps its counts).
    @discardableResult
    mutating func track(_ binding: SensorBinding) -> StrapTally {
        var entry = sensors[binding.address] ?? Self.emptyStatus(binding.address)
        entry.alias = binding.alias
        entry.patientID = binding.patientID
        entry.adapter = adapters.first { $0.straps.contains(binding.address.description) }?.name
        sensors[binding.address] = entry
        if let tally = tallies[binding.address] { return tally }
        let tally = StrapTally()
        tallies[binding.address] = tally
        return tally
    }

    /// Takes a strap that is no longer bound off the board.
    mutating func untrack(_ address: BluetoothAddress) {
        sensors[address] = nil
        tallies[address] = nil
    }

    /// Records what a supervisor reported.
    mutating func record(_ event: SensorEvent) {
        switch event {
        case .stateChanged(let address, let state):
            update(address) {
                if $0.state == SensorState.subscribed.name && state != .subscribed { $0.reconnects += 1 }
                $0.state = state.name
                $0.stateDetail = state.description
            }
        case .deviceInfo(let address, let details):
            update(address) { $0.batteryPercent = details.batteryPercent ?? $0.batteryPercent }
        case .sighted(let address, let rssi):
            update(address) { $0.rssi = rssi }
        case .malformedFrame, .retrying, .stalled:
            break
        }
    }

    /// Records where the placement put each strap and every adapter's slots.
    mutating func placed(_ loads: [GatewayStatusReport.AdapterStatus]) {
        adapters = loads
        let placements = Dictionary(loads.flatMap { load in load.straps.map { ($0, load.name) } }, uniquingKeysWith: { $1 })
        for address in sensors.keys { sensors[address]?.adapter = placements[address.description] }
    }

    /// Samples became durable (in the queue, or held for the clock).
    mutating func accepted(_ samples: [HeartRateSample]) {
        for sample in samples { update(sample.sensor) { $0.samplesAccepted += 1 } }
    }

    /// Samples that could not be made durable.
    mutating func refused(_ count: Int) {
        samplesRefused += count
    }

    /// A storage fault of a queue started (or ended, with nil).
    package mutating func storage(_ fault: QueueError?) {
        storageFault = fault.map { ("\($0)", storageFault?.since ?? Date()) }
    }

    /// A commit was slow (or, with nil, commits are fast again).
    package mutating func commitDuration(_ slow: Duration?) {
        slowCommit = slow
    }

    /// Sets the count of held samples; true if it changed.
    mutating func setSamplesAwaitingClock(_ count: Int) -> Bool {
        defer { samplesAwaitingClock = count }
        return samplesAwaitingClock != count
    }

    /// The outcome of one upload round, per sample, and the round in the upload history.
    mutating func uploaded(_ settled: [(sensor: BluetoothAddress, outcome: Outcome)], latency: Duration, at time: Date) {
        recentUploads.append(UploadRound(settled.lazy.map(\.outcome), latency: latency, at: time))
        if recentUploads.count > UploadRound.kept { recentUploads.removeFirst() }
        for (sensor, outcome) in settled {
            update(sensor) {
                switch outcome {
                case .delivered: $0.samplesDelivered += 1
                case .duplicate: $0.samplesDuplicate += 1
                case .rejected, .forbidden: $0.samplesRejected += 1
                case .skipped, .retryLater: break
                }
            }
        }
        let failure = settled.lazy.compactMap { pair -> String? in
            if case .retryLater(let reason) = pair.outcome { return reason }
            return nil
        }.first
        if let failure {
            uplink.lastError = failure
            uplink.lastErrorAt = time
        } else if !settled.isEmpty {
            uplink.lastSuccessAt = time
        }
    }

    /// Uploads have been failing since `since`, now for `reason`.
    mutating func uplinkFailing(_ reason: String, since: Date) {
        uplink.currentError = reason
        uplink.failingSince = since
    }

    /// Uploads go through again.
    mutating func uplinkRecovered() {
        uplink.currentError = nil
        uplink.failingSince = nil
    }

    /// What the token manager knows now; true if it differs from what the board had.
    mutating func uplinkCredentials(_ credentials: Credentials?, refreshes: Int) -> Bool {
        let before = uplink
        uplink.server = credentials?.server.baseURL
        uplink.tokenExpiresAt = credentials.map { Date(timeIntervalSince1970: Double($0.expiresAt)) }
        uplink.reenrolmentRequired = credentials?.reenrolmentRequired
        uplink.tokenRefreshes = refreshes
        return uplink != before
    }

    /// Why the grant is lost, while it is.
    var reenrolmentRequired: String? { uplink.reenrolmentRequired }

    /// The board as a report.
    package func report(name: String, startedAt: Date, refreshSeconds: Double, clockSynchronized: Bool) -> GatewayStatusReport {
        GatewayStatusReport(
            gatewayName: name, pid: getpid(), startedAt: startedAt, writtenAt: Date(), refreshSeconds: refreshSeconds,
            clockSynchronized: clockSynchronized, samplesAwaitingClock: samplesAwaitingClock,
            storageFault: storageFault?.fault, storageFaultSince: storageFault?.since,
            storageSlowCommitSeconds: slowCommit?.seconds,
            sensors: sensorsNow, adapters: adapters, uplink: uplink)
    }

    /// Each tracked strap's entry with the figures its tally holds now, by address: the report's
    /// straps, and the console's live event, which sends a few of their fields every second.
    package var sensorsNow: [GatewayStatusReport.SensorStatus] {
        sensors.map { withTally($0.key, $0.value) }.sorted { $0.address < $1.address }
    }

    /// A strap's entry with the figures its tally holds now.
    private func withTally(_ address: BluetoothAddress, _ entry: GatewayStatusReport.SensorStatus) -> GatewayStatusReport.SensorStatus {
        guard let figures = tallies[address]?.current else { return entry }
        var entry = entry
        entry.samplesReceived = figures.samples
        entry.malformedFrames = figures.malformedFrames
        entry.bpm = figures.measurement.map { Int($0.bpm) }
        entry.skinContact = figures.measurement?.contact.rawValue
        entry.rrIntervalsMs = figures.measurement?.rrMilliseconds
        entry.lastSampleAt = figures.lastSampleWallClock.map { Date(timeIntervalSince1970: Double($0) / 1_000_000_000) }
        return entry
    }

    /// Changes a tracked strap's entry. Events about a strap no longer bound (its supervisor's
    /// last words, uploads of its backlog) change nothing: they must not bring back a strap
    /// that `forget` removed.
    /// Changes a tracked strap's entry in place (one lookup, no copy of its strings).
    private mutating func update(_ address: BluetoothAddress, _ change: (inout GatewayStatusReport.SensorStatus) -> Void) {
        guard let index = sensors.index(forKey: address) else { return }
        change(&sensors.values[index])
    }

    private static func emptyStatus(_ address: BluetoothAddress) -> GatewayStatusReport.SensorStatus {
        GatewayStatusReport.SensorStatus(
            address: address.description, state: "waiting", stateDetail: "starting", samplesReceived: 0,
            samplesAccepted: 0, samplesDelivered: 0, samplesDuplicate: 0, samplesRejected: 0, malformedFrames: 0,
            reconnects: 0)
    }
}
