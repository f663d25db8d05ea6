#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import ProcessThreads

/// Keeps one bound strap connected and its notifications flowing, for weeks, without a human.
///
/// One cycle: wait for bluetoothd, the adapter and its power → find the device (discovering
/// only if bluetoothd does not know it) → connect (within the adapter's connection slots) →
/// wait for services → read device details → find 0x2A37 by UUID → start notifications →
/// turn every frame into a `HeartRateSample`. When the cycle ends (link loss, bluetoothd
/// restart, adapter power loss, a strap that stops notifying) the next one starts at once; when
/// it fails, it starts again after a jittered, capped backoff. Nothing is given up for good.
package actor SensorSupervisor {
    let address: BluetoothAddress
    private let radio: any StrapRadio
    private let adapterName: String
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
    /// `adapter`; `onSample` gets every decoded frame, `onEvent` every state change and failure,
    /// and `tally` counts the frames (the board's, so counts survive a restarted supervisor).
    /// Both callbacks are called on the stack's thread as frames arrive: they must be quick and
    /// must not block (hand the sample to a buffer, count it).
    package init(
        address: BluetoothAddress, patientID: String?, radio: any StrapRadio, adapter: String,
        policy: ReconnectPolicy, slots: ConnectionSlots, clock: CaptureClock, tally: StrapTally = StrapTally(),
        onSample: @escaping @Sendable (HeartRateSample) -> Void,
        onEvent: @escaping @Sendable (SensorEvent) -> Void = { _ in }
    ) {
        self.address = address
        self.radio = radio
        adapterName = adapter
        self.policy = policy
        self.slots = slots
        frames = FrameReceiver(address: address, patientID: patientID, clock: clock, tally: tally, onSample: onSample, onEvent: onEvent)
        self.onEvent = onEvent
    }

    /// Runs cycles until the task is cancelled.
    package func run() async {
        var attempt = 0
        while !Task.isCancelled {
            do {
                try await waitForAdapter()
                let link = try await findStrap()
                try await connect(link)
                details = await link.details()
                onEvent(.deviceInfo(address, details))
                let lasted = try await receive(from: link)
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
            } catch {
                guard !Task.isCancelled else { return }
                let failure = error as? SupervisorError ?? SupervisorError(String(describing: error), transient: true)
                let delay = policy.backoff.delay(attempt: attempt, using: &random)
                attempt += 1
                state = .backingOff(failure.description)
                onEvent(.retrying(address, reason: failure.description, transient: failure.isTransient, after: delay, failures: attempt))
                try? await ProcessExecutor.sleep(for: delay)
            }
        }
    }

    // MARK: Steps

    /// Returns once bluetoothd runs and the adapter is present and powered.
    private func waitForAdapter() async throws {
        let name = adapterName
        while true {
            try Task.checkCancellation()
            let readiness = await radio.readiness(of: name)
            switch readiness {
            case .ready:
                return
            case .noDaemon:
                state = .waiting("bluetoothd is not running")
            case .absent:
                state = .waiting("adapter \(name) is not present")
            case .poweredOff where policy.powerOnAdapter:
                state = .waiting("adapter \(name) is off; powering it on")
                try await radio.powerOn(name)
            case .poweredOff:
                state = .waiting("adapter \(name) is powered off")
            }
            await radio.readinessChange(of: name, from: readiness, timeout: .seconds(30))
        }
    }

    /// The strap's link, discovering the strap if the stack does not know it.
    private func findStrap() async throws -> any StrapLink {
        if let link = await radio.knownLink(to: address, on: adapterName) { return link }
        state = .discovering
        return try await radio.discover(address, on: adapterName, timeout: policy.discoveryTimeout)
    }

    private func connect(_ link: any StrapLink) async throws {
        state = .connecting
        try await slots.withSlot(on: adapterName) { try await link.connect() }
        state = .resolvingServices
        guard await link.servicesResolved(within: policy.servicesTimeout) else {
            await link.disconnect()
            throw SupervisorError("\(address) connected but its services were not resolved in time", transient: true)
        }
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
            // Sleeps until the stall deadline (the last frame plus the timeout), not in short
            // ticks: a streaming strap costs one wake-up per stall timeout.
            while !Task.isCancelled {
                let left = policy.stallTimeout - frames.tally.current.lastFrameAt.duration(to: .now)
                if left <= .zero {
                    notifications.stop()
                    return true
                }
                try? await ProcessExecutor.sleep(for: left)
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
