import BlueZ
import CLinux
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayConfiguration
import GatewayOperations
import GatewayPipeline
import GatewayStatus
import Glibc
import Logging
import OfflineQueue
import ProcessThreads
import ServiceLifecycle
import Uplink

/// The composition of `edge-gateway run`: sensor supervisors → sample intake (queue writer) →
/// uploader, plus clock repair and the status report, as one service group that shuts down in
/// reverse order on SIGTERM/SIGINT: the sensors stop first, the uploader abandons its round
/// (its records stay in the queue), the intake commits what it still holds, and the status
/// report, last, records the final counts.
package struct Gateway {
    let configuration: GatewayConfiguration
    let environment: [String: String]
    let logger: Logger
    var clock = CaptureClock()

    /// The daemon for `configuration`, reading the systemd environment from `environment`.
    package init(configuration: GatewayConfiguration, environment: [String: String], logger: Logger) {
        self.configuration = configuration
        self.environment = environment
        self.logger = logger
    }

    var stateDirectory: String { configuration.gateway.stateDirectory }

    /// Opens the state, runs until a termination signal, and closes the state cleanly.
    package func run() async throws {
        // SIGHUP means "look again" (ReloadSignal), never "terminate": ignored from the start,
        // so one sent by `queue retry-dead` before the service group traps it cannot kill the
        // daemon. The trap still receives it (a Dispatch signal source works on ignored signals).
        signal(SIGHUP, SIG_IGN)
        // One malloc arena for all threads, set before the daemon starts its own: glibc gives each
        // thread that allocates an arena of its own, and every arena keeps dirty pages of its own.
        // The daemon's threads allocate little and rarely at once, so they share one at no
        // measurable cost: private dirty memory 4.4 -> 3.9 MB at 1 strap x 10/s (docs/PERFORMANCE.md).
        mallopt(M_ARENA_MAX, 1)
        // No padding when the heap grows or is trimmed: glibc adds 128 kB to every growth and
        // keeps 128 kB free at the top when it trims, and the upload rounds write into that pad,
        // which then stays dirty: 4.13 -> 4.01 MB at 10 straps (docs/PERFORMANCE.md).
        mallopt(M_TOP_PAD, 0)
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let lock: StateDirectoryLock
        do {
            lock = try StateDirectoryLock(directory: stateDirectory)
        } catch {
            logger.critical("the daemon cannot start: \(error.message)", metadata: ["code": "\(error.code.rawValue)"])
            throw error
        }
        defer { lock.release() }
        let counters = DaemonCounters()
        let notifier = SystemdNotifier(environment: environment)
        let (queue, held) = try await openQueues(counters: counters, notifier: notifier)
        let uplink = configuration.uplink
        let transport = try CurlTransport(caFile: uplink.caFile, environment: environment)
        let tokens = TokenManager(
            store: CredentialsFileStore(directory: stateDirectory), transport: transport, timeout: uplink.timeout,
            serverSettings: uplink.serverSettings)
        let delivery = DeliveryConfiguration(
            batchSize: uplink.batchSize, requestTimeout: uplink.timeout,
            encoding: EncodingOptions(
                resolution: try UploadResolution(parsing: uplink.resolution), includeRRIntervals: uplink.rrIntervals,
                dropNoContact: uplink.dropNoContact))
        let committed = ChangeSignal()
        let heldCommitted = ChangeSignal()
        let bindingsChanged = ChangeSignal()
        let buffer = SampleBuffer(capacity: configuration.queue.maxInMemory)
        let history = UploadHistory(directory: stateDirectory)
        let logger = logger
        let intake = SampleIntake(
            buffer: buffer, queue: queue, held: held, counters: counters, logger: logger, committed: committed,
            heldCommitted: heldCommitted, holdUnsynchronized: configuration.gateway.holdUntilClockSync,
            commitInterval: configuration.queue.commitInterval, commitMax: configuration.queue.commitMax)
        var services: [any Service] = [
            StatusReporter(
                stateDirectory: stateDirectory, runtimeDirectory: environment["RUNTIME_DIRECTORY"], counters: counters,
                gatewayName: configuration.gateway.name, clock: clock, logger: logger,
                watchdog: notifier?.watchdogInterval,
                onReport: { report in
                    Self.tell(notifier, report, logger: logger)
                    // A strap's state moved (a link lost) while no sample beats: an open page hears it now.
                    counters.pulse.beat()
                },
                onAlive: { Self.ping(notifier, logger: logger) }),
            intake,
            ClockRepairService(
                held: held, queue: queue, clock: clock, counters: counters, logger: logger, heldCommitted: heldCommitted,
                committed: committed, holdUnsynchronized: configuration.gateway.holdUntilClockSync),
            UploadService(
                queue: queue, client: JHEClient(tokens: tokens, transport: transport, configuration: delivery), tokens: tokens,
                counters: counters, logger: logger, committed: committed, batchSize: uplink.batchSize, interval: uplink.interval,
                onAttempt: { attempt in
                    do { try history.record(attempt) } catch {
                        logger.warning("cannot record the upload history", metadata: ["error": "\(error)"])
                    }
                },
                // The rounds' Bundles, records and replies are freed by then, and their pages would
                // stay dirty among long-lived blocks: malloc_trim gives back whole free pages anywhere
                // in the heap. About 50 µs, once per pause; private dirty at 10 straps 3.90-4.00 ->
                // 3.81-3.83 MB, the heap's upper mode gone (docs/PERFORMANCE.md).
                beforePause: { malloc_trim(0) }),
            SensorFleet(
                bindings: SensorBindingStore(directory: stateDirectory), bus: .system, plan: AdapterPlan(configuration.bluetooth),
                policy: reconnectPolicy, clock: clock,
                buffer: buffer, counters: counters, logger: logger, bindingsChanged: bindingsChanged),
            ReloadSignal(raises: [bindingsChanged, committed], logger: logger),
            CodePageTrim(logger: logger),
        ]
        if !configuration.metrics.listen.isEmpty {
            services.append(try metricsServer(counters: counters, queue: queue))
        }
        if !configuration.web.listen.isEmpty {
            services.append(try consoleServer(counters: counters, queue: queue, held: held, committed: committed))
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let adapters = configuration.bluetooth.adapterNames?.joined(separator: ", ") ?? "all"
        logger.notice("edge-gateway started", metadata: ["state_dir": "\(stateDirectory)", "adapters": "\(adapters)"])
        do {
            try await group.run()
            try? notifier?.stopping()
        } catch {
            logger.critical("the daemon stopped on an error", metadata: ["error": "\(error)"])
            await close(queue, held)
            throw error
        }
        await close(queue, held)
        let refused = intake.samplesNotKept
        if refused > 0 {
            logger.warning("edge-gateway stopped; every accepted sample is on disk, but \(refused) received samples were refused (see above)")
        } else {
            logger.notice("edge-gateway stopped; every accepted sample is on disk")
        }
    }

    /// Serves the console on `[web] listen`: on loopback as it is, beyond it over TLS behind a
    /// password (`ConsoleSecuritySetup`, which `run` checked before starting).
    private func consoleServer(counters: DaemonCounters, queue: OfflineQueue, held: OfflineQueue, committed: ChangeSignal) throws -> HTTPServer {
        let address = try Self.listenAddress(configuration.web.listen, key: "[web] listen")
        let tls = try ConsoleSecuritySetup.prepare(configuration.web, stateDirectory: stateDirectory)
        let report = liveReport(counters)
        let storage = StorageFigures(queue: queue, stateDirectory: stateDirectory)
        var routes = ConsoleRoutes(
            snapshot: {
                let (queue, disk, movedAside) = await storage.current()
                return ConsoleRoutes.snapshotJSON(
                    report: report(), queue: queue, disk: disk, movedAside: movedAside, uploads: counters.read(\.recentUploads))
            },
            live: ({ ConsoleRoutes.liveJSON(counters.read(\.sensorsNow)) }, counters.pulse),
            history: { counters.heartRateHistory(endingAt: Int64(Date().timeIntervalSince1970)) }, port: address.port)
        let (clock, configuration, stateDirectory) = (clock, configuration, stateDirectory)
        routes.logger = logger
        routes.actions = ConsoleActions(
            retryDead: {
                let moved = try await queue.retryDead()
                if moved > 0 { committed.raise() }
                return moved
            },
            releaseHeld: {
                let released = try await HeldSamples(held: held, queue: queue).release(now: clock.now)
                if released.repaired > 0 { committed.raise() }
                return released
            },
            doctor: { await Doctor(stateDirectory: stateDirectory, configuration: configuration).run() })
        guard let tls else { return HTTPServer(address: address, role: .console, logger: logger, handler: routes.handle) }
        let gate = ConsoleGate(routes: routes, sessions: ConsoleSessions(stateDirectory: stateDirectory), logger: logger)
        return HTTPServer(address: address, role: .console, logger: logger, tls: tls, handler: gate.handle)
    }

    /// Serves `/metrics` on `[metrics] listen` from the counters and the queue's own counts.
    private func metricsServer(counters: DaemonCounters, queue: OfflineQueue) throws -> HTTPServer {
        let address = try Self.listenAddress(configuration.metrics.listen, key: "[metrics] listen")
        let report = liveReport(counters)
        if !address.isLoopback {
            logger.warning(
                "metrics are served beyond this machine, without authentication",
                metadata: [
                    "listen": "\(configuration.metrics.listen)",
                    "fix":
                        "anyone on the network can read strap addresses and sample counts; listen on 127.0.0.1 and scrape through an SSH tunnel or an authenticating reverse proxy",
                ])
        }
        return HTTPServer(
            address: address, role: .metrics, logger: logger,
            handler: MetricsRoutes.handler {
                do {
                    let stats = try await queue.stats()
                    return counters.metrics.render(report: report(), queue: stats, disk: DiskSpace(of: stateDirectory))
                } catch {
                    return "# edge-gateway: the queue could not be read: \(error)\n"
                }
            })
    }

    /// The report as the counters make it now, for the servers that answer with it.
    private func liveReport(_ counters: DaemonCounters) -> @Sendable () -> GatewayStatusReport {
        let name = configuration.gateway.name
        let started = Date()
        return {
            counters.read { $0.report(name: name, startedAt: started, refreshSeconds: 0, clockSynchronized: CaptureClock.isSynchronized) }
        }
    }

    /// A server's `listen` value taken apart (the configuration checked it already).
    private static func listenAddress(_ text: String, key: String) throws -> ListenAddress {
        guard let address = ListenAddress(text) else { throw ConfigurationError(.invalidValue, "\(key) = \"\(text)\" is not host:port") }
        return address
    }

    /// Tells systemd the daemon is up (the first call), what it is doing, and that it is alive.
    static func tell(_ notifier: SystemdNotifier?, _ report: GatewayStatusReport, logger: Logger) {
        guard let notifier else { return }
        let subscribed = report.sensors.filter { $0.state == SensorState.subscribed.name }.count
        let uplink =
            report.uplink.reenrolmentRequired.map { "re-enrolment required: \($0)" }
            ?? report.uplink.currentError.map { _ in "uplink failing (see status)" } ?? "uplink ok"
        do {
            try notifier.send(["READY=1", "STATUS=\(subscribed)/\(report.sensors.count) straps subscribed; \(uplink)", "WATCHDOG=1"])
        } catch {
            logger.warning("cannot notify systemd", metadata: ["error": "\(error)"])
        }
    }

    /// Tells systemd's watchdog the daemon is alive.
    static func ping(_ notifier: SystemdNotifier?, logger: Logger) {
        do {
            try notifier?.watchdog()
        } catch {
            logger.warning("cannot notify systemd", metadata: ["error": "\(error)"])
        }
    }

    private var reconnectPolicy: ReconnectPolicy {
        var policy = ReconnectPolicy()
        policy.backoff.maximum = configuration.bluetooth.reconnectMaxBackoff
        policy.stallTimeout = configuration.bluetooth.stallTimeout
        return policy
    }

    /// Opens the upload queue and the held queue on the storage thread. A new queue takes
    /// several fsyncs, and a stalling card can hold each for seconds: past `TimeoutStartSec`
    /// systemd would kill the daemon before it says READY=1. So every 5 s the open takes, the
    /// daemon asks systemd for 15 s more (`EXTEND_TIMEOUT_USEC`) and says why in its status.
    private func openQueues(counters: DaemonCounters, notifier: SystemdNotifier?) async throws -> (OfflineQueue, OfflineQueue) {
        let (directory, bounds, logger) = (stateDirectory, configuration.queue, logger)
        return try await withThrowingTaskGroup(of: (OfflineQueue, OfflineQueue)?.self) { group in
            group.addTask {
                try await BlockingWorkExecutor.storage.run {
                    let queue = try Self.openQueue(directory + "/queue.sqlite", bounds: bounds, logger: logger, counters: counters)
                    let held = try Self.openQueue(directory + "/" + HeldSamples.fileName, bounds: bounds, logger: logger, held: true, counters: counters)
                    return (queue, held)
                }
            }
            group.addTask {
                var waited = 0
                while true {
                    try await ProcessExecutor.sleep(for: .seconds(5))
                    waited += 5
                    if waited == 5 { logger.warning("opening the queue is slow: the disk stalls; asking systemd for more start time") }
                    try? notifier?.send(["EXTEND_TIMEOUT_USEC=15000000", "STATUS=opening the queue (\(waited) s so far: the disk is slow)"])
                }
            }
            defer { group.cancelAll() }
            while let opened = try await group.next() {
                if let opened { return opened }
            }
            throw CancellationError()
        }
    }

    private static func openQueue(
        _ path: String, bounds: GatewayConfiguration.Queue, logger: Logger, held: Bool = false, counters: DaemonCounters
    ) throws -> OfflineQueue {
        var settings = Self.queueSettings(bounds, logger: logger, held: held)
        settings.storageFaultObserver = { fault in counters.update { $0.storage(fault) } }
        settings.slowCommitObserver = { duration in counters.update { $0.commitDuration(duration) } }
        let queue: OfflineQueue
        do {
            queue = try OfflineQueue(path: path, configuration: settings)
        } catch {
            if error.code == .inaccessible {
                logger.critical("the daemon cannot start: \(error.message)", metadata: ["code": "\(error.code.rawValue)"])
            }
            throw error
        }
        if let recovery = queue.recovery {
            logger.critical(
                "the queue file was damaged and replaced by a new one; import its readable records with `edge-gateway queue import`",
                metadata: ["report": "\(recovery)"])
        }
        return queue
    }

    /// The configured bounds and group commit. The held queue is not trimmed by age: its capture
    /// times come from an unsynchronised clock, and the jump at synchronisation would make every
    /// held sample look ancient. It has no ingest journal either: `queue release-held` leases
    /// from it beside the daemon, and a journal's records are the daemon's alone until retired.
    static func queueSettings(_ bounds: GatewayConfiguration.Queue, logger: Logger, held: Bool) -> QueueConfiguration {
        var settings = QueueConfiguration()
        settings.maxRecords = bounds.maxRecords
        settings.maxBytes = bounds.maxBytes
        settings.maxAge = held ? .seconds(100 * 365 * 24 * 3600) : bounds.maxAge
        if held { settings.ingestBytes = 0 }
        settings.commitInterval = bounds.commitInterval
        settings.commitMax = bounds.commitMax
        settings.maxUnflushedRecords = bounds.maxInMemory
        settings.logger = logger
        return settings
    }

    private func close(_ queue: OfflineQueue, _ held: OfflineQueue) async {
        await queue.close()
        await held.close()
    }
}
