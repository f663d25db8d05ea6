import BlueZ
import DBus
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import Logging
import ServiceLifecycle

/// Runs one `SensorSupervisor` per bound strap, and follows `sensors.json` while running: a
/// strap bound with `edge-gateway pair` is picked up at once (inotify reports the file's
/// replacement; SIGHUP also raises `bindingsChanged`), a forgotten one is disconnected, a
/// re-bound one (new patient) is restarted with its new binding. Where inotify is unavailable
/// the file is read every `fallbackInterval` instead.
///
/// bluetoothd need not be running, nor the system bus reachable, when the daemon starts: the
/// fleet waits for them, as the supervisors wait for the adapter.
package struct SensorFleet: Service {
    let bindings: SensorBindingStore
    let bus: DBusConnection.Bus
    let plan: AdapterPlan
    let policy: ReconnectPolicy
    let clock: CaptureClock
    let buffer: SampleBuffer
    let counters: DaemonCounters
    let logger: Logger
    let bindingsChanged: ChangeSignal
    var fallbackInterval: Duration = .seconds(30)

    /// Every field given: the memberwise initializer, which Swift would make only `internal`.
    package init(
        bindings: SensorBindingStore,
        bus: DBusConnection.Bus,
        plan: AdapterPlan,
        policy: ReconnectPolicy,
        clock: CaptureClock,
        buffer: SampleBuffer,
        counters: DaemonCounters,
        logger: Logger,
        bindingsChanged: ChangeSignal,
        fallbackInterval: Duration = .seconds(30)
    ) {
        self.bindings = bindings
        self.bus = bus
        self.plan = plan
        self.policy = policy
        self.clock = clock
        self.buffer = buffer
        self.counters = counters
        self.logger = logger
        self.bindingsChanged = bindingsChanged
        self.fallbackInterval = fallbackInterval
    }

    /// Supervises every bound strap until the service group shuts down.
    package func run() async throws {
        guard let client = await connect() else { return }
        // The straps' AcquireNotify sockets wait for the intake, which gathers them before each commit.
        let sockets = client.notificationSockets
        let source = buffer.addSource { sockets.gather() }
        sockets.observe { [buffer] active in buffer.source(source, active: active) }
        defer { buffer.removeSource(source) }
        // Values over PropertiesChanged are read in turns, as the sockets are gathered.
        await client.connection.restAfterPropertyBytes(for: BlueZStrapRadio.valueRest)
        let watch = await FileChangeWatch.start(
            directory: bindings.directory, names: [SensorBindingStore.fileName], signal: bindingsChanged, on: client.connection)
        if watch == nil {
            logger.warning(
                "cannot watch the state directory for binding changes (inotify); reading sensors.json every \(fallbackInterval)",
                metadata: [
                    "fix": "raise fs.inotify.max_user_instances, or send SIGHUP (systemctl reload edge-gateway) after pair/forget"
                ])
        }
        defer { watch?.cancel() }
        let slots = ConnectionSlots(plan: plan)
        let placement = AdapterPlacement(plan: plan) { [counters] loads in counters.update { $0.placed(loads) } }
        let radio = BlueZStrapRadio(client: client, discovery: DiscoverySessions())
        let malformed = MalformedFrameLog { [logger] in logger.warning("\($0)") }
        let adapterWatch = Task { [plan, logger] in await Self.watchAdapters(radio: radio, placement: placement, plan: plan, logger: logger) }
        defer { adapterWatch.cancel() }
        var running: [BluetoothAddress: (binding: SensorBinding, task: Task<Void, Never>)] = [:]
        var lastError: String?
        while !Task.isCancelledOrShuttingDown {
            do {
                let wanted = Dictionary(try bindings.load().map { ($0.address, $0) }, uniquingKeysWith: { $1 })
                lastError = nil
                for (address, entry) in running where wanted[address] != entry.binding {
                    entry.task.cancel()
                    running[address] = nil
                    counters.update { $0.untrack(address) }
                    logger.notice("stopped supervising strap", metadata: ["sensor": "\(address)"])
                }
                for (address, binding) in wanted where running[address] == nil {
                    let tally = counters.update { $0.track(binding) }
                    let supervisor = SensorSupervisor(
                        address: address, patientID: binding.patientID, radio: radio, plan: plan, placement: placement,
                        policy: policy,
                        slots: slots, clock: clock, tally: tally,
                        onSample: { [buffer, counters] sample in
                            if !buffer.add(sample) { counters.update { $0.refused(1) } }
                            counters.pulse.beat()
                        },
                        onEvent: { [counters, logger] event in
                            counters.update { $0.record(event) }
                            Self.log(event, to: logger, malformed: malformed)
                        })
                    running[address] = (binding, Task { await supervisor.run() })
                    logger.notice("supervising strap", metadata: ["sensor": "\(address)", "alias": "\(binding.alias ?? "-")"])
                }
            } catch {
                if lastError != error.description {
                    logger.error("cannot read the sensor bindings; keeping the current ones", metadata: ["error": "\(error.description)"])
                    lastError = error.description
                }
            }
            await bindingsChanged.wait(upTo: watch == nil ? fallbackInterval : nil)
        }
        for entry in running.values { entry.task.cancel() }
        for entry in running.values { await entry.task.value }
        await client.close()
    }

    /// Keeps the placement's view of the adapters current, so `status` shows them with no strap
    /// waiting, and logs each adapter of the plan that appears, goes, or changes power.
    private static func watchAdapters(radio: BlueZStrapRadio, placement: AdapterPlacement, plan: AdapterPlan, logger: Logger) async {
        var previous: [String: RadioAdapter] = [:]
        while !Task.isCancelled {
            let adapters = await radio.adapters()
            await placement.observe(adapters)
            let current = Dictionary((adapters ?? []).filter { plan.selects($0.name) }.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
            for (name, adapter) in current where previous[name] != adapter {
                logger.notice(
                    previous[name] == nil ? "adapter present" : "adapter changed",
                    metadata: [
                        "adapter": "\(name)", "address": "\(adapter.address ?? "-")", "powered": "\(adapter.powered)",
                        "slots": "\(plan.capacity(of: name))",
                    ])
            }
            for name in previous.keys where current[name] == nil {
                logger.warning("adapter gone; its straps are placed on the others", metadata: ["adapter": "\(name)"])
            }
            previous = current
            await radio.adaptersChange(from: adapters, timeout: .seconds(3600))
        }
    }

    /// Connects to the bus, retrying until it answers or the service stops.
    private func connect() async -> BlueZClient? {
        var reported = false
        while !Task.isCancelledOrShuttingDown {
            do {
                return try await BlueZClient.connect(bus)
            } catch {
                if !reported {
                    logger.error("cannot reach the D-Bus system bus; retrying", metadata: ["error": "\(error)"])
                    reported = true
                }
                await ServicePause.sleep(for: .seconds(5))
            }
        }
        return nil
    }

    private static func log(_ event: SensorEvent, to logger: Logger, malformed: MalformedFrameLog) {
        switch event {
        case .stateChanged(let address, let state):
            logger.info("strap state", metadata: ["sensor": "\(address)", "state": "\(state)"])
        case .deviceInfo(let address, let details):
            logger.info(
                "strap details",
                metadata: [
                    "sensor": "\(address)", "name": "\(details.name ?? "-")", "battery": "\(details.batteryPercent.map(String.init) ?? "-")",
                ])
        case .malformedFrame(let address, let bytes, let error, let count):
            Task { await malformed.record(address, bytes: bytes, error: error, total: count) }
        case .retrying(let address, let reason, let transient, let delay, let failures):
            logger.log(
                level: retryLogLevel(failures: failures),
                "strap cycle failed; retrying",
                metadata: [
                    "sensor": "\(address)", "reason": "\(reason)", "transient": "\(transient)", "after": "\(delay)",
                    "failures": "\(failures)",
                ])
        case .stalled(let address):
            logger.warning("strap went silent; reconnecting", metadata: ["sensor": "\(address)"])
        case .sighted(let address, let rssi):
            logger.debug("strap placed", metadata: ["sensor": "\(address)", "rssi": "\(rssi.map { "\($0) dBm" } ?? "unknown")"])
        }
    }

    /// How loudly the `failures`th failed cycle in a row is logged. A strap out of range fails
    /// about once a minute for as long as it is away; the 1st, 2nd, 4th, 8th… failure is a
    /// warning (with the count) and the others debug, so a day away is about a dozen lines in the
    /// journal, not 1,440. `status` shows the current failure meanwhile.
    static func retryLogLevel(failures: Int) -> Logger.Level {
        failures > 0 && failures.nonzeroBitCount == 1 ? .warning : .debug
    }
}
