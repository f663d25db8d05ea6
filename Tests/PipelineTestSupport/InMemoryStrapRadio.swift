import GATTHeartRate
import GatewayPipeline
import Synchronization

/// A `StrapRadio` held in memory, which a test drives directly: adapters change readiness,
/// straps are known or only discoverable, connects fail as scripted or take their time, links
/// drop, frames arrive. It behaves as `BlueZStrapRadio` does over bluetoothd: an adapter that
/// stops being ready ends every link on it; a stopped subscription ends its frames.
///
/// All straps sit on adapter `hci0`.
package actor InMemoryStrapRadio: StrapRadio {
    /// How one strap behaves.
    package struct Strap: Sendable {
        /// bluetoothd knows it (it was paired or seen), so no discovery is needed.
        package var known = true
        /// Discovery finds it.
        package var discoverable = true
        /// Failures for the next connect attempts, one each, in order.
        package var connectFailures: [SupervisorError] = []
        /// How long a connect takes.
        package var connectTime: Duration = .zero
        /// It has a Heart Rate Measurement characteristic.
        package var hasHeartRate = true
        /// What it says about itself.
        package var details = DeviceDetails(name: "Polar H10", batteryPercent: 80)
        fileprivate var subscription: Subscription?
    }

    private var adapters: [String: AdapterReadiness] = ["hci0": .ready]

    /// A radio with adapter `hci0` ready and no straps.
    package init() {}
    private var straps: [BluetoothAddress: Strap] = [:]
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0
    private var connectsInFlight = 0
    /// The most connect attempts ever in flight at once.
    package private(set) var peakConnects = 0
    /// Connect attempts, per strap.
    package private(set) var connectAttempts: [BluetoothAddress: Int] = [:]
    /// Subscriptions started, per strap.
    package private(set) var subscriptions: [BluetoothAddress: Int] = [:]
    /// Disconnects asked for, per strap.
    package private(set) var disconnects: [BluetoothAddress: Int] = [:]
    /// Times a supervisor powered an adapter on.
    package private(set) var powerOns = 0

    /// Adds (or changes) a strap.
    package func add(_ address: BluetoothAddress, _ configure: (inout Strap) -> Void = { _ in }) {
        var strap = straps[address] ?? Strap()
        configure(&strap)
        straps[address] = strap
    }

    /// Changes an adapter's readiness; anything but `.ready` drops every link.
    package func set(_ adapter: String, _ readiness: AdapterReadiness) {
        adapters[adapter] = readiness
        if readiness != .ready {
            for address in straps.keys { dropLink(address) }
        }
        for waiter in waiters.values { waiter.resume() }
        waiters = [:]
    }

    /// Delivers a frame to the strap's subscription; false when it has none.
    @discardableResult
    package func send(_ frame: [UInt8], from address: BluetoothAddress) -> Bool {
        guard let subscription = straps[address]?.subscription else { return false }
        subscription.deliver(frame)
        return true
    }

    /// Whether the strap has a live subscription.
    package func isSubscribed(_ address: BluetoothAddress) -> Bool {
        straps[address]?.subscription != nil
    }

    /// The link drops (out of range, strap off): its subscription ends.
    package func dropLink(_ address: BluetoothAddress) {
        straps[address]?.subscription?.end()
        straps[address]?.subscription = nil
    }

    // MARK: StrapRadio

    /// What the test last `set` for `adapter` (`hci0` starts ready); `.absent` for any other
    /// adapter never set.
    package func readiness(of adapter: String) -> AdapterReadiness {
        adapters[adapter] ?? .absent
    }

    /// Returns at the next `set` of any adapter (by the test or `powerOn`), or after `timeout`;
    /// at once when `adapter` is no longer at `current`.
    package func readinessChange(of adapter: String, from current: AdapterReadiness, timeout: Duration) async {
        guard readiness(of: adapter) == current else { return }
        let id = nextWaiter
        nextWaiter += 1
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.endWait(id)
        }
        await withCheckedContinuation { waiters[id] = $0 }
        timer.cancel()
    }

    /// Counts the call in `powerOns`; makes a powered-off adapter ready (waking waiters),
    /// leaves any other state alone.
    package func powerOn(_ adapter: String) {
        powerOns += 1
        if adapters[adapter] == .poweredOff { set(adapter, .ready) }
    }

    /// A link when the adapter is ready and the strap is `known`; nil otherwise.
    package func knownLink(to strap: BluetoothAddress, on adapter: String) -> (any StrapLink)? {
        guard readiness(of: adapter) == .ready, straps[strap]?.known == true else { return nil }
        return Link(radio: self, address: strap)
    }

    /// At once, ignoring `adapter` and `timeout`: a link when the strap is `discoverable` (it
    /// becomes `known`), else the transient not-found failure `BlueZStrapRadio` throws.
    package func discover(_ strap: BluetoothAddress, on adapter: String, timeout: Duration) throws -> any StrapLink {
        guard straps[strap]?.discoverable == true else {
            throw SupervisorError("\(strap) was not found by discovery: is the strap worn, charged and in range?", transient: true)
        }
        straps[strap]?.known = true
        return Link(radio: self, address: strap)
    }

    // MARK: Link operations

    private func endWait(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume()
    }

    fileprivate func connect(_ address: BluetoothAddress) async throws {
        connectAttempts[address, default: 0] += 1
        connectsInFlight += 1
        peakConnects = max(peakConnects, connectsInFlight)
        defer { connectsInFlight -= 1 }
        if let time = straps[address]?.connectTime, time > .zero { try await Task.sleep(for: time) }
        if let failure = straps[address]?.connectFailures.first {
            straps[address]?.connectFailures.removeFirst()
            throw failure
        }
    }

    fileprivate func details(of address: BluetoothAddress) -> DeviceDetails {
        straps[address]?.details ?? DeviceDetails()
    }

    fileprivate func subscribe(_ address: BluetoothAddress, deliver: @escaping @Sendable ([UInt8]) -> Void) -> StrapNotifications? {
        guard straps[address]?.hasHeartRate == true else { return nil }
        dropLink(address)
        let subscription = Subscription(deliver: deliver)
        straps[address]?.subscription = subscription
        subscriptions[address, default: 0] += 1
        return StrapNotifications(ended: { for await _ in subscription.ended {} }, stop: subscription.end)
    }

    fileprivate func disconnect(_ address: BluetoothAddress) {
        disconnects[address, default: 0] += 1
        dropLink(address)
    }

    /// One strap's link: every call goes to the radio, as a BlueZ device's go to bluetoothd.
    private struct Link: StrapLink {
        let radio: InMemoryStrapRadio
        let address: BluetoothAddress

        func connect() async throws { try await radio.connect(address) }
        func servicesResolved(within timeout: Duration) async -> Bool { await radio.readiness(of: "hci0") == .ready }
        func details() async -> DeviceDetails { await radio.details(of: address) }
        func heartRateNotifications(
            within timeout: Duration, deliver: @escaping @Sendable ([UInt8]) -> Void
        ) async throws -> StrapNotifications? {
            await radio.subscribe(address, deliver: deliver)
        }
        func disconnect() async { await radio.disconnect(address) }
    }
}

/// One strap's live subscription: frames go to `deliver` until it ends (the link drops, or the
/// supervisor stops it), as bluetoothd sends none after StopNotify.
private final class Subscription: Sendable {
    let ended: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let handler: @Sendable ([UInt8]) -> Void
    private let isOver = Mutex(false)

    init(deliver: @escaping @Sendable ([UInt8]) -> Void) {
        (ended, continuation) = AsyncStream.makeStream(of: Void.self)
        handler = deliver
    }

    func deliver(_ frame: [UInt8]) {
        guard !isOver.withLock({ $0 }) else { return }
        handler(frame)
    }

    @Sendable func end() {
        isOver.withLock { $0 = true }
        continuation.finish()
    }
}
