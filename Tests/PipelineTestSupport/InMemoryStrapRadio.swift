import GATTHeartRate
import GatewayPipeline
import Synchronization

/// A `StrapRadio` held in memory, which a test drives directly: adapters come, go and change
/// power, straps are known or only discoverable, heard by each adapter at their own RSSI,
/// connects fail as scripted or take their time, links drop, frames arrive. It behaves as
/// `BlueZStrapRadio` does over bluetoothd: an adapter that stops being ready ends every link on
/// it; a stopped subscription ends its frames; a controller asked for more connections than it
/// holds aborts the attempt as real ones do (`le-connection-abort-by-local`).
///
/// It starts with one adapter, `hci0`, ready and without a connection limit.
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
        /// The RSSI each adapter reports for it (unseen where absent).
        package var rssi: [String: Int] = [:]
        /// The adapter holding its bond, if any.
        package var bondedOn: String?
        fileprivate var subscription: Subscription?
        /// The adapter it is connected through.
        fileprivate var connectedOn: String?
    }

    /// One controller.
    private struct Controller {
        var readiness: AdapterReadiness
        /// The connections it holds before it aborts new ones; nil for no limit.
        var holds: Int?
    }

    private var daemonRunning = true
    private var controllers: [String: Controller] = ["hci0": Controller(readiness: .ready)]
    private var straps: [BluetoothAddress: Strap] = [:]
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0
    private var connectsInFlight = 0

    /// A radio with adapter `hci0` ready and no straps.
    package init() {}

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
    /// The most links each adapter ever held at once.
    package private(set) var peakLinks: [String: Int] = [:]

    /// Adds (or changes) a strap.
    package func add(_ address: BluetoothAddress, _ configure: (inout Strap) -> Void = { _ in }) {
        var strap = straps[address] ?? Strap()
        configure(&strap)
        straps[address] = strap
    }

    /// Changes an adapter's readiness: `.noDaemon` stops bluetoothd (every link drops),
    /// `.absent` unplugs the adapter, anything but `.ready` drops every link on it; any other
    /// value starts bluetoothd again and plugs the adapter in.
    package func set(_ adapter: String, _ readiness: AdapterReadiness, holding limit: Int?? = .none) {
        switch readiness {
        case .noDaemon:
            daemonRunning = false
            for address in straps.keys { dropLink(address) }
        case .absent:
            controllers[adapter] = nil
        case .poweredOff, .ready:
            daemonRunning = true
            controllers[adapter, default: Controller(readiness: readiness)].readiness = readiness
            if let limit { controllers[adapter]?.holds = limit }
        }
        if readiness != .ready {
            for (address, strap) in straps where strap.connectedOn == adapter { dropLink(address) }
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

    /// The adapter the strap is connected through, if it is.
    package func adapter(of address: BluetoothAddress) -> String? {
        straps[address]?.connectedOn
    }

    /// The link drops (out of range, strap off): its subscription ends.
    package func dropLink(_ address: BluetoothAddress) {
        straps[address]?.subscription?.end()
        straps[address]?.subscription = nil
        straps[address]?.connectedOn = nil
    }

    // MARK: StrapRadio

    /// The adapters the test set, sorted by name; nil while bluetoothd is stopped.
    package func adapters() -> [RadioAdapter]? {
        guard daemonRunning else { return nil }
        return controllers.keys.sorted().map {
            RadioAdapter(name: $0, address: "00:1A:7D:DA:71:\($0.dropFirst(3))", powered: controllers[$0]!.readiness == .ready)
        }
    }

    /// Returns at the next `set` (by the test or `powerOn`), or after `timeout`; at once when
    /// the adapters no longer are `current`.
    package func adaptersChange(from current: [RadioAdapter]?, timeout: Duration) async {
        guard adapters() == current else { return }
        let id = nextWaiter
        nextWaiter += 1
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.endWait(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume() } else { waiters[id] = continuation }
            }
        } onCancel: {
            Task { await self.endWait(id) }
        }
        timer.cancel()
    }

    /// The strap's RSSI on `adapter` and whether it is bonded there.
    package func sighting(of strap: BluetoothAddress, on adapter: String) -> StrapSighting {
        StrapSighting(adapter: adapter, rssi: straps[strap]?.rssi[adapter], bonded: straps[strap]?.bondedOn == adapter)
    }

    /// Counts the call in `powerOns`; makes a powered-off adapter ready (waking waiters),
    /// leaves any other state alone.
    package func powerOn(_ adapter: String) {
        powerOns += 1
        if controllers[adapter]?.readiness == .poweredOff { set(adapter, .ready) }
    }

    /// A link when the adapter is ready and the strap is `known`; nil otherwise.
    package func knownLink(to strap: BluetoothAddress, on adapter: String) -> (any StrapLink)? {
        guard isReady(adapter), straps[strap]?.known == true else { return nil }
        return Link(radio: self, address: strap, adapter: adapter)
    }

    /// At once, ignoring `timeout`: a link when the strap is `discoverable` (it becomes
    /// `known`), else the transient not-found failure `BlueZStrapRadio` throws.
    package func discover(_ strap: BluetoothAddress, on adapter: String, timeout: Duration) throws -> any StrapLink {
        guard straps[strap]?.discoverable == true else {
            throw SupervisorError("\(strap) was not found by discovery: is the strap worn, charged and in range?", transient: true)
        }
        straps[strap]?.known = true
        return Link(radio: self, address: strap, adapter: adapter)
    }

    private func isReady(_ adapter: String) -> Bool {
        daemonRunning && controllers[adapter]?.readiness == .ready
    }

    // MARK: Link operations

    private func endWait(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume()
    }

    fileprivate func connect(_ address: BluetoothAddress, on adapter: String) async throws {
        connectAttempts[address, default: 0] += 1
        connectsInFlight += 1
        peakConnects = max(peakConnects, connectsInFlight)
        defer { connectsInFlight -= 1 }
        if let time = straps[address]?.connectTime, time > .zero { try await Task.sleep(for: time) }
        if let failure = straps[address]?.connectFailures.first {
            straps[address]?.connectFailures.removeFirst()
            throw failure
        }
        guard isReady(adapter) else {
            throw SupervisorError("Connect \(address) failed: Resource Not Ready (org.bluez.Error.NotReady)", transient: true)
        }
        let links = straps.values.filter { $0.connectedOn == adapter }.count
        if let holds = controllers[adapter]?.holds, links >= holds {
            throw SupervisorError(
                "Connect \(address) failed: le-connection-abort-by-local (org.bluez.Error.Failed)", transient: true, slotRefusal: .ifAdapterBusy)
        }
        straps[address]?.connectedOn = adapter
        peakLinks[adapter] = max(peakLinks[adapter, default: 0], links + 1)
    }

    fileprivate func details(of address: BluetoothAddress) -> DeviceDetails {
        straps[address]?.details ?? DeviceDetails()
    }

    fileprivate func subscribe(_ address: BluetoothAddress, deliver: @escaping @Sendable ([UInt8]) -> Void) -> StrapNotifications? {
        guard straps[address]?.hasHeartRate == true else { return nil }
        straps[address]?.subscription?.end()
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
        let adapter: String

        func connect() async throws { try await radio.connect(address, on: adapter) }
        func servicesResolved(within timeout: Duration) async -> Bool { await radio.adapter(of: address) == adapter }
        func details() async -> DeviceDetails { await radio.details(of: address) }
        func heartRateNotifications(
            within timeout: Duration, deliver: @escaping @Sendable ([UInt8], UInt64) -> Void
        ) async throws -> StrapNotifications? {
            await radio.subscribe(address, deliver: { deliver($0, 0) })
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

/// What a test makes of an adapter (`InMemoryStrapRadio.set`).
package enum AdapterReadiness: Sendable, Equatable {
    /// bluetoothd is not on the bus.
    case noDaemon
    /// bluetoothd runs but has no adapter of that name.
    case absent
    /// The adapter is there and off.
    case poweredOff
    /// The adapter is there and on.
    case ready
}
