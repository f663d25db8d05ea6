import BlueZSimulator
import Foundation
import GATTHeartRate
@testable import GatewayCommandLine
@testable import GatewayPipeline
@testable import GatewayStatus
import GatewayTestSupport
import Glibc
import JHESimulator

/// The whole product on one machine, as real processes where it matters: a private
/// `dbus-daemon` with a simulated bluetoothd and straps, a JHE simulator on loopback, an enrolled
/// state directory with bound straps, and the real `edge-gateway run` as a child process.
final class DaemonFixture: Sendable {
    let directory: TemporaryDirectory
    let bus: PrivateBus
    let bluetoothd: BluetoothdSimulator
    let jhe: JHESimulator
    let straps: [BluetoothAddress]
    var stateDirectory: String { directory.file("state") }

    private init(directory: TemporaryDirectory, bus: PrivateBus, bluetoothd: BluetoothdSimulator, jhe: JHESimulator, straps: [BluetoothAddress]) {
        self.directory = directory
        self.bus = bus
        self.bluetoothd = bluetoothd
        self.jhe = jhe
        self.straps = straps
    }

    /// Starts the simulators, enrols the gateway through the CLI and binds the first `bound`
    /// (default: all) of `straps` straps to the default patient. Straps notify every `interval`;
    /// the simulated box has `adapters` (hci0 alone unless given).
    static func start(
        straps count: Int = 2, bound: Int? = nil, interval: Duration = .milliseconds(200), tokenLifetime: Int = 3600,
        adapters: [SimulatedAdapter] = [.hci0]
    ) async throws -> DaemonFixture {
        let directory = try TemporaryDirectory("daemon-test")
        let bus = try PrivateBus()
        let bluetoothd = BluetoothdSimulator(
            busAddress: bus.address, straps: SimulatedStrap.fleet(count: count, notificationInterval: interval), devicesKnownAtStart: true,
            adapters: adapters)
        try await bluetoothd.start()
        let jhe = JHESimulator(tokenLifetime: tokenLifetime)
        _ = try await jhe.start()
        let fixture = DaemonFixture(directory: directory, bus: bus, bluetoothd: bluetoothd, jhe: jhe, straps: await bluetoothd.strapAddresses)
        try await fixture.enroll()
        let bindings = SensorBindingStore(directory: fixture.stateDirectory)
        for address in fixture.straps.prefix(bound ?? count) {
            try bindings.bind(SensorBinding(address: address, alias: nil, patientID: String(JHESimulator.defaultPatientID), addedAt: Date()))
        }
        return fixture
    }

    /// Enrols (again) with a fresh invitation, through the real CLI.
    func enroll() async throws {
        let link = await jhe.issueInvitation()
        let result = try await GatewayProcess.run(["enroll", link, "--state-dir", stateDirectory])
        guard result.status == 0 else { throw FixtureError("enroll failed: \(result.standardError)") }
    }

    /// Runs an `edge-gateway` command against this fixture's state and bus.
    func command(_ arguments: [String], standardInput: String? = nil) async throws -> GatewayProcess.Result {
        try await GatewayProcess.run(arguments + ["--state-dir", stateDirectory], environment: environment, standardInput: standardInput)
    }

    /// Starts `edge-gateway run` (with `extra` environment); its log goes to `daemon-<n>.log`.
    func startDaemon(extra: [String: String] = [:]) throws -> ChildProcess {
        let log = directory.file("daemon-\(UUID().uuidString).log")
        return try ChildProcess(
            GatewayProcess.productsDirectory.appendingPathComponent("edge-gateway").path,
            ["run", "--state-dir", stateDirectory, "--log-level", "debug"],
            errorPath: log, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }.merging(extra) { $1 })
    }

    /// What points the daemon and the CLI at this fixture, with timings fit for tests.
    var environment: [String: String] {
        [
            "DBUS_SYSTEM_BUS_ADDRESS": bus.address,
            "EDGE_GATEWAY_UPLINK_INTERVAL_S": "1",
            "EDGE_GATEWAY_QUEUE_COMMIT_INTERVAL_MS": "200",
            "EDGE_GATEWAY_GATEWAY_HOLD_UNTIL_CLOCK_SYNC": "false",
        ]
    }

    /// Every line the daemons of this fixture logged, each daemon's in order.
    func daemonLog() throws -> [Substring] {
        let logs = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".log") }
        return try logs.flatMap { try String(contentsOfFile: directory.file($0), encoding: .utf8).split(separator: "\n") }
    }

    /// Every sample id the daemons reported accepted (durable), from their debug logs.
    func acceptedSampleIDs() throws -> Set<UUID> {
        var ids = Set<UUID>()
        for line in try daemonLog() where line.contains("accepted samples") && line.contains("queue=upload") {
            guard let range = line.range(of: "ids=") else { continue }
            let list = line[range.upperBound...].prefix { $0.isHexDigit || $0 == "-" || $0 == "," }
            ids.formUnion(list.split(separator: ",").compactMap { UUID(uuidString: String($0)) })
        }
        return ids
    }

    /// The sample ids in the queue, through the real `queue export` (JSON lines: the first
    /// UUID-shaped string of a line is its sample id).
    func queuedSampleIDs() async throws -> Set<UUID> {
        let export = try await command(["queue", "export"])
        guard export.status == 0 else { throw FixtureError("queue export failed: \(export.standardError)") }
        return Set(export.outputLines.compactMap { line in line.split(separator: "\"").lazy.compactMap { UUID(uuidString: String($0)) }.first })
    }

    /// The samples stored on the server, in the order it stored them: (OMH header uuid, time).
    func serverSamples() async throws -> [(id: UUID, time: String)] {
        try await jhe.storedDataPoints().map { point in
            guard let id = point.uuid, let time = point.dateTime else {
                throw FixtureError("stored data point without uuid or time: \(point.json)")
            }
            return (id, time)
        }
    }

    /// The daemon's last status report.
    func statusReport() throws -> GatewayStatusReport? {
        try StatusReportFile.read(directory: stateDirectory)
    }

    /// Waits until the daemon has exited, and returns its wait status.
    static func waitForExit(_ daemon: ChildProcess, timeout: Duration = .seconds(60)) async throws -> Int32 {
        guard let status = await daemon.exitStatus(within: timeout) else { throw FixtureError("the daemon did not exit within \(timeout)") }
        return status
    }

    /// Stops the simulators and removes the directory.
    func stop() async {
        await jhe.stop()
        await bluetoothd.stop()
        bus.stop()
        directory.remove()
    }
}

/// A fixture step that went wrong, with what it saw.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
