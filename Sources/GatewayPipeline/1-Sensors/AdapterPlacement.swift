import GATTHeartRate
import GatewayStatus
import ProcessThreads

/// Places each strap's connection on one adapter, and keeps count of every adapter's slots.
///
/// The score is in the spirit of Home Assistant's habluetooth: the RSSI the adapter reports for
/// the strap, plus a bonus where the strap is bonded (a bond belongs to one controller), minus
/// penalties for connects in progress there, for its recent failures, and for taking its last
/// free slot; a full adapter is never chosen. A strap stays where it was placed until its cycle
/// ends (the link drops, or its adapter goes): a connected strap is never moved for a better
/// score, so nothing flaps.
///
/// A controller that refuses a connection for want of a slot teaches the placement its real
/// size: the adapter counts as full at the connections it holds until one of them ends or
/// `learnedLimitLifetime` passes.
package actor AdapterPlacement {
    private struct Ledger {
        var placed: Set<BluetoothAddress> = []
        /// The placed straps whose connect succeeded.
        var connected: Set<BluetoothAddress> = []
        var connecting = 0
        var recentFailures: [ContinuousClock.Instant] = []
        var learnedLimit: (count: Int, until: ContinuousClock.Instant)?
        var connects = 0
        var failures = 0
        var slotRefusals = 0
    }

    private let plan: AdapterPlan
    private let learnedLimitLifetime: Duration
    private let onChange: @Sendable ([GatewayStatusReport.AdapterStatus]) -> Void
    private var present: [RadioAdapter] = []
    private var ledgers: [String: Ledger] = [:]
    private var placements: [BluetoothAddress: String] = [:]
    private var releaseWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0
    /// Slots freed so far: a strap reads it before `place`, so a slot freed between a refused
    /// `place` and its `slotFreed` still ends the wait.
    package private(set) var releases = 0

    /// A placement with `plan`'s limits; a refused connect lowers an adapter's limit for
    /// `learnedLimitLifetime`. `onChange` gets every adapter's load after each change (for
    /// status and metrics).
    package init(
        plan: AdapterPlan, learnedLimitLifetime: Duration = .seconds(600),
        onChange: @escaping @Sendable ([GatewayStatusReport.AdapterStatus]) -> Void = { _ in }
    ) {
        self.plan = plan
        self.learnedLimitLifetime = learnedLimitLifetime
        self.onChange = onChange
    }

    /// The adapters the stack shows now (nil: bluetoothd is not running), for the loads.
    package func observe(_ adapters: [RadioAdapter]?) {
        let selected = (adapters ?? []).filter { plan.selects($0.name) }
        guard selected != present else { return }
        present = selected
        changed()
    }

    // MARK: Placing

    /// Places `strap` on the best of the adapters in `sightings` with a free slot and returns
    /// it; nil when all are full. Placing a strap again releases its slot first.
    package func place(_ strap: BluetoothAddress, among sightings: [StrapSighting]) -> String? {
        release(strap)
        let now = ContinuousClock.now
        let best = sightings.compactMap { sighting -> (adapter: String, score: Int)? in
            let free = capacity(of: sighting.adapter, at: now) - ledgers[sighting.adapter, default: Ledger()].placed.count
            guard free > 0 else { return nil }
            return (sighting.adapter, score(sighting, free: free, at: now))
        }.max { ($0.score, $1.adapter) < ($1.score, $0.adapter) }
        guard let chosen = best?.adapter else { return nil }
        placements[strap] = chosen
        ledgers[chosen, default: Ledger()].placed.insert(strap)
        changed()
        return chosen
    }

    /// Frees `strap`'s slot (its cycle ended) and wakes the straps waiting for one. A connection
    /// that ends also ends what a refusal taught of the adapter's size.
    package func release(_ strap: BluetoothAddress) {
        guard let adapter = placements.removeValue(forKey: strap) else { return }
        ledgers[adapter]?.placed.remove(strap)
        if ledgers[adapter]?.connected.remove(strap) != nil { ledgers[adapter]?.learnedLimit = nil }
        changed()
        wakeWaiters()
    }

    /// Returns when a slot is freed anywhere (at once if one was since `releases` read `seen`),
    /// or after `timeout`.
    package func slotFreed(since seen: Int, timeout: Duration) async {
        guard releases == seen else { return }
        let id = nextWaiter
        nextWaiter += 1
        let timer = Task { [weak self] in
            try? await ProcessExecutor.sleep(for: timeout)
            await self?.endWait(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume() } else { releaseWaiters[id] = continuation }
            }
        } onCancel: {
            Task { await self.endWait(id) }
        }
        timer.cancel()
    }

    // MARK: Connecting

    /// A connect of `strap` starts on its adapter.
    package func connectStarted(_ strap: BluetoothAddress) {
        guard let adapter = placements[strap] else { return }
        ledgers[adapter]?.connecting += 1
    }

    /// How the connect that `connectStarted` announced ended.
    package enum ConnectOutcome: Sendable {
        case connected
        case failed
        /// The controller refused: `certain` when it said it has no slot, not `certain` when its
        /// answer (`le-connection-abort-by-local`) means that only on an adapter already busy
        /// (holding links, or making other connects).
        case noSlot(certain: Bool)
    }

    /// Records how `strap`'s connect ended; returns whether it counts as a full adapter (the
    /// strap is then released, to be placed again without a strap failure counted).
    @discardableResult
    package func connectFinished(_ strap: BluetoothAddress, _ outcome: ConnectOutcome) -> Bool {
        guard let adapter = placements[strap], var ledger = ledgers[adapter] else { return false }
        ledger.connecting = max(0, ledger.connecting - 1)
        var full = false
        switch outcome {
        case .connected:
            ledger.connects += 1
            ledger.connected.insert(strap)
        case .noSlot(let certain) where certain || !ledger.connected.isEmpty || ledger.connecting > 0:
            // A controller's slots hold its links and the connects it is making.
            ledger.slotRefusals += 1
            ledger.learnedLimit = (ledger.connected.count + ledger.connecting, .now + learnedLimitLifetime)
            full = true
        case .noSlot, .failed:
            ledger.failures += 1
            ledger.recentFailures = ledger.recentFailures.filter { $0.duration(to: .now) < Self.failureMemory } + [.now]
        }
        ledgers[adapter] = ledger
        if full { release(strap) } else { changed() }
        return full
    }

    // MARK: Reading

    /// Every adapter of the plan present now, and any other still holding a placed strap, by name.
    package func loads() -> [GatewayStatusReport.AdapterStatus] {
        loads(of: Set(present.map(\.name)).union(ledgers.filter { !$0.value.placed.isEmpty }.keys).sorted())
    }

    /// The adapters named, with their slots and record.
    func loads(of adapters: [String]) -> [GatewayStatusReport.AdapterStatus] {
        let now = ContinuousClock.now
        return adapters.map { name in
            let ledger = ledgers[name, default: Ledger()]
            let adapter = present.first { $0.name == name }
            return GatewayStatusReport.AdapterStatus(
                name: name, address: adapter?.address, powered: adapter?.powered == true, slots: capacity(of: name, at: now),
                straps: ledger.placed.map(\.description).sorted(), connects: ledger.connects, failures: ledger.failures,
                slotRefusals: ledger.slotRefusals)
        }
    }

    /// Straps waiting in `slotFreed`.
    var waiting: Int { releaseWaiters.count }

    /// The adapter `strap` is placed on, if any.
    package func adapter(of strap: BluetoothAddress) -> String? {
        placements[strap]
    }

    // MARK: Scoring

    /// Failures older than this no longer count against an adapter.
    static let failureMemory: Duration = .seconds(300)

    private func capacity(of adapter: String, at now: ContinuousClock.Instant) -> Int {
        let configured = plan.capacity(of: adapter)
        guard let learned = ledgers[adapter]?.learnedLimit, now < learned.until else { return configured }
        return min(configured, learned.count)
    }

    /// RSSI (an adapter that never saw the strap counts as -100 dBm), +20 where it is bonded,
    /// -10 per connect in progress, -15 per failure in the last five minutes (three at most),
    /// -5 for the last free slot.
    private func score(_ sighting: StrapSighting, free: Int, at now: ContinuousClock.Instant) -> Int {
        let ledger = ledgers[sighting.adapter, default: Ledger()]
        let failures = min(3, ledger.recentFailures.filter { $0.duration(to: now) < Self.failureMemory }.count)
        return (sighting.rssi ?? -100) + (sighting.bonded ? 20 : 0) - 10 * ledger.connecting - 15 * failures - (free == 1 ? 5 : 0)
    }

    private func changed() {
        onChange(loads())
    }

    private func wakeWaiters() {
        releases += 1
        let waiters = releaseWaiters
        releaseWaiters = [:]
        for waiter in waiters.values { waiter.resume() }
    }

    private func endWait(_ id: Int) {
        releaseWaiters.removeValue(forKey: id)?.resume()
    }
}
