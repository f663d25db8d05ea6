#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import ProcessThreads

/// Keeps one bound strap connected and its notifications flowing, for weeks, without a human.
///
/// One cycle: wait for bluetoothd and a powered adapter → take a connection slot on the best
/// adapter (`AdapterPlacement`) → find the device there (discovering only if bluetoothd does not
/// know it) → connect (within the adapter's parallel connects) →
/// wait for services → read device details → find 0x2A37 by UUID → start notifications →
/// turn every frame into a `HeartRateSample`. When the cycle ends (link loss, bluetoothd
/// restart, adapter power loss, a strap that stops notifying) the next one starts at once; when
/// it fails, it starts again after a jittered, capped backoff. Nothing is given up for good. An
/// adapter that refuses the connect for want of a slot is not the strap's fault: the strap is
/// placed again at once, elsewhere or when a slot frees.
package actor SensorSupervisor {
    let address: BluetoothAddress
    private let radio: any StrapRadio
    private let plan: AdapterPlan
    private let placement: AdapterPlacement
    private let policy: ReconnectPolicy
    private let slots: ConnectionSlots
    private let frames: FrameReceiver
    private let onEvent: @Sendable (SensorEvent) -> Void
    private var random = SystemRandomNumberGenerator()

    /// Where the supervisor is now.
    private(set) var state: SensorState = .waiting("starting") {
        didSet { if state != oldValue { onEvent(.stateChanged(address, state)) } }
    }
    /// Frames received and turned into samples.
    var samples: Int { frames.tally.current.samples }
    /// Frames that did not decode.
    var malformedFrames: Int { frames.tally.current.malformedFrames }
    /// Subscriptions that ended and were rebuilt.
    private(set) var reconnects = 0
    /// What the strap said about itself on the last connection.
    private(set) var details = DeviceDetails()

    /// A supervisor for the strap at `address`, bound to `patientID`, reached through `radio` on
    /// an adapter of `plan` that `placement` chooses; `onSample` gets every decoded frame, `onEvent` every state change and failure,
    /// and `tally` counts the frames (the board's, so counts survive a restarted supervisor).
    /// Both callbacks are called on the stack's thread as frames arrive: they must be quick and
    /// must not block (hand the sample to a buffer, count it).
    package init(
        address: BluetoothAddress, patientID: String?, radio: any StrapRadio, plan: AdapterPlan, placement: AdapterPlacement,
        policy: ReconnectPolicy, slots: ConnectionSlots, clock: CaptureClock, tally: StrapTally = StrapTally(),
        onSample: @escaping @Sendable (HeartRateSample) -> Void,
        onEvent: @escaping @Sendable (SensorEvent) -> Void = { _ in }
    ) {
        self.address = address
        self.radio = radio
        self.plan = plan
        self.placement = placement
        self.policy = policy
        self.slots = slots
        frames = FrameReceiver(address: address, patientID: patientID, clock: clock, tally: tally, onSample: onSample, onEvent: onEvent)
        self.onEvent = onEvent
    }

    /// Runs cycles until the task is cancelled.
    package func run() async {
        var attempt = 0
        while !Task.isCancelled {
            var placedOn: String?
            do {
                let adapter = try await placeStrap()
                placedOn = adapter
                let lasted: Duration
                do {
                    lasted = try await cycle(on: adapter)
                } catch {
                    await placement.release(address)
                    throw error
                }
                await placement.release(address)
                // A stop (the daemon shutting down) ends the subscription too; that is not a drop.
                guard !Task.isCancelled else { return }
                reconnects += 1
                guard lasted < policy.stableSubscription else {
                    attempt = 0
                    continue
                }
                throw SupervisorError("\(address) dropped \(Int((lasted.seconds * 1000).rounded())) ms after subscribing", transient: true)
            } catch is CancellationError {
                return
            } catch let refusal as SlotRefused {
                // Not the strap's fault: placed again at once, where a slot is free.
                state = .waiting("no free connection slot on \(refusal.adapter) (\(refusal.reason))")
            } catch {
                guard !Task.isCancelled else { return }
                if let adapter = placedOn, await !isUsable(adapter) {
                    // The adapter went (unplugged, powered off) under the cycle: not the strap's fault.
                    state = .waiting("adapter \(adapter) went away; placing the strap again")
                    continue
                }
                let failure = error as? SupervisorError ?? SupervisorError(String(describing: error), transient: true)
                let delay = policy.backoff.delay(attempt: attempt, using: &random)
                attempt += 1
                state = .backingOff(failure.description)
                onEvent(.retrying(address, reason: failure.description, transient: failure.isTransient, after: delay, failures: attempt))
                try? await ProcessExecutor.sleep(for: delay)
            }
        }
    }

    /// One connection on `adapter`, from finding the strap to the end of its subscription.
    private func cycle(on adapter: String) async throws -> Duration {
        let link = try await findStrap(on: adapter)
        try await connect(link, on: adapter)
        details = await link.details()
        onEvent(.deviceInfo(address, details))
        return try await receive(from: link)
    }

    // MARK: Steps

    /// Returns the adapter the strap was placed on, once bluetoothd runs, an adapter of the
    /// plan is present and powered, and one of them has a free slot.
    private func placeStrap() async throws -> String {
        while true {
            try Task.checkCancellation()
            let adapters = await radio.adapters()
            let usable = (adapters ?? []).filter { plan.selects($0.name) }
            let ready = usable.filter(\.powered)
            if ready.isEmpty {
                state = .waiting(Self.noAdapterReason(adapters, usable: usable, plan: plan, powering: policy.powerOnAdapter))
                if policy.powerOnAdapter, let off = usable.first(where: { !$0.powered }) {
                    try await radio.powerOn(off.name)
                }
                await radio.adaptersChange(from: adapters, timeout: .seconds(30))
                continue
            }
            var sightings: [StrapSighting] = []
            for adapter in ready { sightings.append(await radio.sighting(of: address, on: adapter.name)) }
            let releases = await placement.releases
            if let chosen = await placement.place(address, among: sightings) {
                onEvent(.sighted(address, rssi: sightings.first { $0.adapter == chosen }?.rssi))
                return chosen
            }
            state = .waiting("no free connection slot on \(ready.map(\.name).joined(separator: ", "))")
            // A slot freed here, or an adapter plugged in or powered, ends the wait.
            await withTaskGroup(of: Void.self) { [radio, placement] group in
                group.addTask { await placement.slotFreed(since: releases, timeout: .seconds(30)) }
                group.addTask { await radio.adaptersChange(from: adapters, timeout: .seconds(30)) }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// Whether `adapter` is still present and powered, once the stack has had up to two seconds
    /// to report its going: bluetoothd removes an unplugged adapter's devices (failing the calls
    /// in flight) before the adapter itself, so a failure can arrive before the news.
    private func isUsable(_ adapter: String) async -> Bool {
        func usable(_ adapters: [RadioAdapter]?) -> Bool {
            adapters?.contains { $0.name == adapter && $0.powered } == true
        }
        let now = await radio.adapters()
        guard usable(now) else { return false }
        await radio.adaptersChange(from: now, timeout: .seconds(2))
        return usable(await radio.adapters())
    }

    /// Why no adapter can be used: bluetoothd, adapters absent, or off.
    static func noAdapterReason(_ adapters: [RadioAdapter]?, usable: [RadioAdapter], plan: AdapterPlan, powering: Bool) -> String {
        guard let adapters else { return "bluetoothd is not running" }
        if usable.isEmpty {
            guard let names = plan.names else { return "no Bluetooth adapter is present" }
            let present = adapters.isEmpty ? "none" : adapters.map(\.name).joined(separator: ", ")
            let missing = names.count == 1 ? "adapter \(names[0]) is" : "adapters \(names.joined(separator: ", ")) are"
            return "\(missing) not present (present: \(present))"
        }
        let off = usable.map(\.name).joined(separator: ", ")
        let subject = usable.count == 1 ? "adapter \(off) is" : "adapters \(off) are"
        return powering ? "\(subject) off; powering it on" : "\(subject) powered off"
    }

    /// The strap's link on `adapter`, discovering the strap if the stack does not know it.
    private func findStrap(on adapter: String) async throws -> any StrapLink {
        if let link = await radio.knownLink(to: address, on: adapter) { return link }
        state = .discovering
        return try await radio.discover(address, on: adapter, timeout: policy.discoveryTimeout)
    }

    private func connect(_ link: any StrapLink, on adapter: String) async throws {
        state = .connecting
        await placement.connectStarted(address)
        do {
            try await slots.withSlot(on: adapter) { try await link.connect() }
        } catch let failure as SupervisorError where failure.slotRefusal != .none {
            if await placement.connectFinished(address, .noSlot(certain: failure.slotRefusal == .certain)) {
                throw SlotRefused(adapter: adapter, reason: failure.description)
            }
            throw failure
        } catch {
            await placement.connectFinished(address, .failed)
            throw error
        }
        await placement.connectFinished(address, .connected)
        state = .resolvingServices
        guard await link.servicesResolved(within: policy.servicesTimeout) else {
            await link.disconnect()
            throw SupervisorError("\(address) connected but its services were not resolved in time", transient: true)
        }
    }

    /// A connect the adapter refused for want of a slot: the cycle ends without a strap failure.
    private struct SlotRefused: Error {
        let adapter: String
        let reason: String
    }

    /// Subscribes to 0x2A37, whose frames `frames` turns into samples, until the subscription
    /// ends; returns how long it lasted. A strap silent for longer than the stall timeout is
    /// disconnected, to force a fresh link.
    private func receive(from link: any StrapLink) async throws -> Duration {
        let frames = frames
        guard let notifications = try await link.heartRateNotifications(within: policy.servicesTimeout, deliver: frames.receive) else {
            await link.disconnect()
            throw SupervisorError("\(address) has no Heart Rate Measurement characteristic (0x2A37): is it a heart-rate strap?", transient: false)
        }
        state = .subscribed
        let subscribedAt = ContinuousClock.now
        frames.tally.subscribed()
        let watchdog = Task { [policy] in
            // Sleeps until the stall deadline (the last frame plus the timeout, plus how late a
            // frame may be read), not in short ticks, rounded up to a grid of a third of the
            // timeout (at most 5 s) that every strap shares: a stall is seen up to that much
            // later, and the deadlines of any number of streaming straps fall due on at most
            // three instants per timeout, each one wake-up of the process for all of them.
            let grid = min(.seconds(5), policy.stallTimeout / 3)
            while !Task.isCancelled {
                let left = policy.stallTimeout + notifications.readLag - frames.tally.current.lastFrameAt.duration(to: .now)
                if left <= .zero {
                    notifications.stop()
                    return true
                }
                try? await ProcessExecutor.sleep(for: left, alignedTo: grid)
            }
            return false
        }
        await notifications.ended()
        watchdog.cancel()
        if await watchdog.value {
            onEvent(.stalled(address))
            await link.disconnect()
        }
        return subscribedAt.duration(to: .now)
    }
}
