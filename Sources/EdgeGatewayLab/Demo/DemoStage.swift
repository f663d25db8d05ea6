import BlueZSimulator
import Foundation
import GATTHeartRate
import GatewayCommandLine
import GatewayPipeline
import GatewayStatus
import JHESimulator
import OfflineQueue

/// Everything `edge-gateway-lab demo` puts on stage: a private bus with a simulated bluetoothd and
/// straps, a JHE simulator with short-lived tokens, an enrolled state directory with the straps
/// bound, and the real daemon (the sibling `edge-gateway run`) as a child process.
final class DemoStage: @unchecked Sendable {
    let directory: String
    let bus: PrivateBus
    let bluetoothd: BluetoothdSimulator
    let jhe: JHESimulator
    let straps: [BluetoothAddress]
    /// How many simulated adapters the box has.
    let adapters: Int
    /// Seconds a JHE access token lives on this stage's simulator.
    let tokenLifetime: Int
    private(set) var daemon: ChildProcess?

    var stateDirectory: String { directory + "/state" }
    /// What systemd's `RuntimeDirectory=` gives the service: where the daemon keeps its status
    /// report, off the state directory and its inotify watch. On a box that is a tmpfs under
    /// `/run`, so rewriting the report writes nothing to storage; the stage uses `/dev/shm`
    /// where there is one, so the footprint benchmark's byte counts are those of a box.
    let runtimeDirectory: String
    var daemonLog: String { directory + "/daemon.log" }
    /// The real gateway: by default `edge-gateway` installed or built next to this lab program,
    /// so the demo drives the very binary a box runs.
    let executable: String
    static var siblingGateway: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("edge-gateway").path
    }

    /// Builds the stage; nothing runs on it yet but the simulators. Without `acquireNotify` the
    /// straps only offer `StartNotify`, so notifications reach the daemon as `PropertiesChanged`
    /// signals through dbus-daemon (the path bleak and most scripts use). With several
    /// `adapters`, the straps are bound on the first and found on the others by discovery.
    init(
        sensors: Int, interval: Duration, tokenLifetime: Int, acquireNotify: Bool = true, adapters: Int = 1, gateway: String = siblingGateway
    ) async throws {
        executable = gateway
        let name = "edge-gateway-demo-\(UUID().uuidString.prefix(8))"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        runtimeDirectory = access("/dev/shm", W_OK) == 0 ? "/dev/shm/" + name : directory + "/run"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        bus = try PrivateBus()
        let fleet = SimulatedStrap.fleet(count: sensors, notificationInterval: interval).map { strap in
            var strap = strap
            strap.offersAcquireNotify = strap.offersAcquireNotify && acquireNotify
            return strap
        }
        bluetoothd = BluetoothdSimulator(
            busAddress: bus.address, straps: fleet, devicesKnownAtStart: true,
            adapters: (0 ..< max(1, adapters)).map { SimulatedAdapter(name: "hci\($0)") })
        self.adapters = max(1, adapters)
        try await bluetoothd.start()
        jhe = JHESimulator(tokenLifetime: tokenLifetime)
        _ = try await jhe.start()
        straps = fleet.map(\.address)
        self.tokenLifetime = tokenLifetime
    }

    /// Enrols through `edge-gateway enroll` with a fresh invitation and binds every strap to the
    /// simulator's patient, as a technician would: with `edge-gateway pair` when `pairing`,
    /// otherwise by writing the bindings (quicker, for benchmarks).
    func enrollAndBind(pairing: Bool = false) async throws {
        let link = await jhe.issueInvitation()
        let enroll = try ChildProcess(executable, ["enroll", link, "--state-dir", stateDirectory], errorPath: daemonLog)
        let status = try await Self.exitStatus(of: enroll, within: .seconds(60))
        guard status == 0 else { throw DemoError("enrolment failed (see \(daemonLog))") }
        if pairing {
            for (index, address) in straps.enumerated() {
                let pair = try ChildProcess(
                    executable,
                    [
                        "pair", address.description, "--alias", "bed \(index + 1)", "--patient", String(JHESimulator.defaultPatientID),
                        "--state-dir", stateDirectory,
                    ],
                    errorPath: daemonLog, environment: busEnvironment)
                guard try await Self.exitStatus(of: pair, within: .seconds(120)) == 0 else {
                    throw DemoError("edge-gateway pair \(address) failed (see \(daemonLog))")
                }
            }
            return
        }
        let bindings = SensorBindingStore(directory: stateDirectory)
        for (index, address) in straps.enumerated() {
            try bindings.bind(
                SensorBinding(
                    address: address, alias: "bed \(index + 1)", patientID: String(JHESimulator.defaultPatientID), addedAt: Date()))
        }
    }

    /// Stops every strap's link by powering every adapter off: the straps go quiet, and what the
    /// daemon holds can drain.
    func silenceStraps() async {
        for adapter in await bluetoothd.adapterNames { await bluetoothd.setAdapterPowered(false, adapter: adapter) }
    }

    /// Starts `edge-gateway run` on the stage as systemd would (with a runtime directory),
    /// uploading every `uplinkInterval` seconds (the demo's 2 s, or nil for the daemon's default).
    func startDaemon(uplinkInterval: Int? = 2) throws {
        var environment = busEnvironment
        if let uplinkInterval { environment["EDGE_GATEWAY_UPLINK_INTERVAL_S"] = String(uplinkInterval) }
        // This box's clock may never report itself synchronised (containers, CI); a demo should
        // not hold every sample for clock repair.
        environment["EDGE_GATEWAY_GATEWAY_HOLD_UNTIL_CLOCK_SYNC"] = "false"
        // The simulated adapters, unlike real controllers, hold any number of straps: the stage's
        // share of each, so that several adapters are all used.
        environment["EDGE_GATEWAY_BLUETOOTH_MAX_CONNECTIONS"] = String(max(5, (straps.count + adapters - 1) / adapters))
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true)
        environment["RUNTIME_DIRECTORY"] = runtimeDirectory
        // What deploy/edge-gateway.service sets besides.
        environment["GNUTLS_NO_IMPLICIT_INIT"] = "1"
        daemon = try ChildProcess(
            executable, ["run", "--state-dir", stateDirectory, "--log-level", "notice"],
            errorPath: daemonLog, environment: environment)
    }

    /// This process's environment with the stage's bus as the system bus.
    private var busEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        return environment
    }

    /// Kills the daemon with SIGKILL, counts what survived it, and starts it again. Survived:
    /// the samples JHE holds or the queue still holds, by id; at least as many as the daemon's
    /// last status report had called accepted (made durable), or some were lost.
    func crashAndRestartDaemon() async throws -> DemoVerdict.Crash {
        guard let daemon else { throw DemoError("no daemon to kill") }
        let reported = statusReport()?.sensors ?? []
        daemon.signal(SIGKILL)
        _ = try await Self.exitStatus(of: daemon, within: .seconds(60))
        var survivors = Set(await jhe.storedDataPoints().compactMap(\.uuid))
        survivors.formUnion(try await queuedSampleIDs())
        try startDaemon()
        return DemoVerdict.Crash(
            accepted: survivors.count, reportedAccepted: reported.reduce(0) { $0 + $1.samplesAccepted },
            reportedCaptured: reported.reduce(0) { $0 + $1.samplesReceived })
    }

    /// The ids of the samples in the queue (pending or leased).
    private func queuedSampleIDs() async throws -> Set<UUID> {
        let queue = try OfflineQueue(path: stateDirectory + "/queue.sqlite", access: .attach)
        var ids = Set<UUID>()
        do {
            var after: Int64 = 0
            while true {
                let records = try await queue.records(after: after, limit: 1000)
                guard let last = records.last else { break }
                for record in records { ids.insert(try SampleRecordCodec.sample(from: record).id) }
                after = last.id
            }
        } catch {
            await queue.close()
            throw error
        }
        await queue.close()
        return ids
    }

    /// Stops the daemon with SIGTERM and returns its exit status.
    func stopDaemon() async throws -> Int32 {
        guard let daemon else { return 0 }
        daemon.signal(SIGTERM)
        return try await Self.exitStatus(of: daemon, within: .seconds(60))
    }

    /// The daemon's CPU time and memory now.
    func daemonUsage() -> ProcessUsage? {
        daemon.flatMap { ProcessUsage(pid: $0.pid) }
    }

    /// The daemon's latest status report.
    func statusReport() -> GatewayStatusReport? {
        try? StatusReportFile.read(directory: stateDirectory)
    }

    /// Samples the daemon has accepted (made durable) so far, by its latest status report.
    func acceptedSamples() -> Int {
        statusReport()?.sensors.reduce(0) { $0 + $1.samplesAccepted } ?? 0
    }

    /// Notifications the simulated straps have delivered to the daemon so far (those an
    /// `AcquireNotify` socket dropped were never sent).
    func notificationsDelivered() async -> Int {
        var total = 0
        for strap in straps { total += await bluetoothd.notificationsSent(to: strap) }
        return total
    }

    /// Notifications dropped so far because the daemon's `AcquireNotify` socket was full.
    func notificationsDropped() async -> Int {
        var total = 0
        for strap in straps { total += await bluetoothd.notificationsDropped(for: strap) }
        return total
    }

    /// Records in the queue that JHE does not have yet (pending or leased); nil when unreadable.
    func backlog() async -> Int? {
        await queueStats().map { $0.pending + $0.leased }
    }

    /// Waits (up to `timeout`) until the straps have gone quiet and the queue has nothing left
    /// that JHE does not have; calls `tick` once a second while it waits. Quiet: every sample
    /// received was accepted, and either the latest status report is older than the daemon's
    /// shortest rewrite gap (it rewrites on change, so nothing moved since) or two successive
    /// reports show the same count (a daemon that rewrites on a timer, such as earlier builds
    /// measured with `footprint --gateway`).
    func waitForDrain(within timeout: Duration, tick: () async -> Void) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var previous: (written: Date, received: Int)?
        while ContinuousClock.now < deadline {
            if let report = statusReport(), let left = await backlog() {
                let received = report.sensors.reduce(0) { $0 + $1.samplesReceived }
                let accepted = report.sensors.reduce(0) { $0 + $1.samplesAccepted }
                let unchanged = previous.map { $0.written < report.writtenAt && $0.received == received } ?? false
                let quiet = unchanged || Date().timeIntervalSince(report.writtenAt) > 6
                if quiet, received == accepted, left == 0, await jhe.storedCount() >= accepted {
                    return true
                }
                if previous?.written != report.writtenAt { previous = (report.writtenAt, received) }
            }
            try? await Task.sleep(for: .seconds(1))
            await tick()
        }
        return false
    }

    /// The queue's counts, read next to the running daemon.
    func queueStats() async -> QueueStats? {
        guard let queue = try? OfflineQueue(path: stateDirectory + "/queue.sqlite", access: .attach) else { return nil }
        let stats = try? await queue.stats()
        await queue.close()
        return stats
    }

    /// Ends the simulators and removes the stage's files (keeps them with `keep`).
    func tearDown(keep: Bool) async {
        if let daemon, daemon.exitStatusIfEnded() == nil { daemon.signal(SIGKILL) }
        await jhe.stop()
        await bluetoothd.stop()
        bus.stop()
        if !keep {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: runtimeDirectory)
        }
    }

    private static func exitStatus(of child: ChildProcess, within timeout: Duration) async throws -> Int32 {
        guard let status = await child.exitStatus(within: timeout) else {
            child.signal(SIGKILL)
            throw DemoError("a child process did not finish within \(timeout)")
        }
        return ChildProcess.terminationStatus(status)
    }
}

/// Why the demo could not go on.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
