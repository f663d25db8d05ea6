import BlueZSimulator
import Foundation
import GATTHeartRate
@testable import GatewayCommandLine
@testable import GatewayConfiguration
@testable import GatewayOperations
@testable import GatewayPipeline
@testable import GatewayStatus
import GatewayTestSupport
import OfflineQueue
import PipelineTestSupport
import Testing
import Uplink

/// `edge-gateway status` run as a real process over a state directory the test fills the way
/// the daemon, `enroll` and `pair` do.
@Suite("Operations: edge-gateway status")
struct StatusCommandTests {
    static let secretToken = "access-SECRET-4f1c9e"
    static let secretRefresh = "refresh-SECRET-77aa"

    static func run(_ state: TemporaryDirectory, _ arguments: [String] = []) async throws -> GatewayProcess.Result {
        try await GatewayProcess.run(["status", "--state-dir", state.path] + arguments)
    }

    static func json(_ result: GatewayProcess.Result) throws -> [String: Any] {
        #expect(result.outputLines.count == 1)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    static func enrol(_ state: TemporaryDirectory, reenrolment: String? = nil) throws {
        try CredentialsFileStore(directory: state.path).save(
            Credentials(
                kind: .patient, server: try ServerAddress(baseURL: "http://127.0.0.1:9"), clientID: "client-1",
                accessToken: secretToken, refreshToken: secretRefresh, clientKey: nil,
                expiresAt: Int64(Date().timeIntervalSince1970) + 7200, patientID: "40001", deviceID: "70001",
                reenrolmentRequired: reenrolment))
    }

    static func queueSamples(_ state: TemporaryDirectory, count: Int) async throws {
        let queue = try OfflineQueue(path: state.file("queue.sqlite"))
        for index in 0 ..< count {
            _ = try await queue.append(
                NewRecord(payload: Data("{}".utf8), stream: "F0:1D:2E:3C:00:01", captureTime: 1_795_000_000_000_000_000 + Int64(index), version: 1))
        }
        try await queue.flush()
        await queue.close()
    }

    @Test("exits 69 when the state directory is missing or not a directory")
    func unreadableStateDirectory() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let missing = try await GatewayProcess.run(["status", "--state-dir", scratch.file("absent")])
        #expect(missing.status == 69)
        #expect(missing.standardError.contains("does not exist"))
        #expect(FileManager.default.createFile(atPath: scratch.file("file"), contents: Data()))
        let file = try await GatewayProcess.run(["status", "--state-dir", scratch.file("file")])
        #expect(file.status == 69)
        #expect(file.standardError.contains("not a directory"))
    }

    @Test("on a fresh state directory says the daemon is not running, the queue is empty and the gateway not enrolled; exit 0")
    func freshStateDirectory() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let human = try await Self.run(state)
        #expect(human.status == 0, "\(human.standardError)")
        #expect(human.outputLines.contains { $0.hasPrefix("daemon") && $0.contains("daemon not running (no status report yet") })
        #expect(human.standardOutput.contains("sensors: none bound"))
        #expect(human.standardOutput.contains("no queue file yet"))
        #expect(human.standardOutput.contains("not enrolled"))
        let object = try Self.json(try await Self.run(state, ["--json"]))
        let daemon = try #require(object["daemon"] as? [String: Any])
        #expect(daemon["running"] as? Bool == false)
        #expect(daemon["pid"] is NSNull)
        let queue = try #require(object["queue"] as? [String: Any])
        #expect(queue["readable"] as? Bool == true && queue["pending"] as? Int == 0)
        #expect((object["uplink"] as? [String: Any])?["enrolled"] as? Bool == false)
        #expect((object["sensors"] as? [Any])?.isEmpty == true)
    }

    @Test("with a live daemon shows its straps, the queue read beside it, the uplink from report and credentials, and never a token")
    func liveDaemon() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let adapters = [
            GatewayStatusReport.AdapterStatus(
                name: "hci0", address: "00:1A:7D:DA:71:00", powered: true, slots: 2, straps: [], connects: 4, failures: 1, slotRefusals: 0),
            GatewayStatusReport.AdapterStatus(
                name: "hci1", address: "00:1A:7D:DA:71:01", powered: true, slots: 2, straps: ["F0:1D:2E:3C:00:01"], connects: 2, failures: 0,
                slotRefusals: 1),
        ]
        try StatusReportFile.write(
            StatusReportFixtures.report(sensors: [StatusReportFixtures.sensor("F0:1D:2E:3C:00:01", bpm: 64)], adapters: adapters), directory: state.path)
        try Self.enrol(state)
        try await Self.queueSamples(state, count: 3)
        let binding = SensorBinding(address: try #require(BluetoothAddress("F0:1D:2E:3C:00:02")), alias: "bed 2", patientID: "40001", addedAt: Date())
        try SensorBindingStore(directory: state.path).bind(binding)

        let human = try await Self.run(state)
        #expect(human.status == 0, "\(human.standardError)")
        #expect(human.outputLines.contains { $0.hasPrefix("daemon") && $0.contains("running (pid \(getpid())") })
        let header = try #require(human.outputLines.first { $0.hasPrefix("SENSOR") })
        let row = try #require(human.outputLines.first { $0.hasPrefix("F0:1D:2E:3C:00:01") })
        #expect(row.contains("streaming") && row.contains("64") && row.contains("87 %"))
        #expect(header.range(of: "BPM")?.lowerBound.utf16Offset(in: header) == row.range(of: "64")?.lowerBound.utf16Offset(in: row), "columns aligned")
        #expect(human.outputLines.contains { $0.hasPrefix("F0:1D:2E:3C:00:02") && $0.contains("unknown") })
        #expect(row.contains(" hci1 "), "the strap's adapter")
        let hci1 = try #require(human.outputLines.first { $0.hasPrefix("hci1") })
        #expect(hci1.contains("00:1A:7D:DA:71:01") && hci1.contains("1/2") && hci1.hasSuffix("F0:1D:2E:3C:00:01"))
        #expect(human.outputLines.contains { $0.hasPrefix("ADAPTER") && $0.contains("SLOTS USED") })
        #expect(human.outputLines.contains { $0.hasPrefix("  pending") && $0.hasSuffix(" 3") })
        #expect(human.outputLines.contains { $0.contains("last error") && $0.contains("HTTP 503") })
        #expect(human.outputLines.contains { $0.contains("re-enrolment") && $0.hasSuffix("not needed") })

        let json = try await Self.run(state, ["--json"])
        for secret in [Self.secretToken, Self.secretRefresh] {
            #expect(!human.standardOutput.contains(secret) && !json.standardOutput.contains(secret))
        }
        let keys = ["\"gateway\":", "\"state_dir\":", "\"daemon\":", "\"clock\":", "\"sensors\":", "\"adapters\":", "\"queue\":", "\"uplink\":"]
        let offsets = try keys.map { try #require(json.standardOutput.range(of: $0)).lowerBound }
        #expect(offsets == offsets.sorted(), "top-level keys in the documented order")
        let object = try Self.json(json)
        #expect((object["daemon"] as? [String: Any])?["running"] as? Bool == true)
        let sensors = try #require(object["sensors"] as? [[String: Any]])
        #expect(sensors.count == 2)
        #expect(sensors[0]["bpm"] as? Int == 64 && sensors[0]["samples_received"] as? Int == 100 && sensors[0]["samples_evicted"] as? Int == 0)
        #expect(sensors[0]["skin_contact"] as? String == "detected" && sensors[0]["rssi"] as? Int == -67)
        #expect(sensors[0]["rr_intervals_ms"] as? [Double] == [812.5, 790.0390625])
        #expect((sensors[0]["last_sample_age_s"] as? Double).map { $0 >= 2 && $0 < 600 } == true)
        #expect(sensors[1]["state"] as? String == "unknown" && sensors[1]["samples_received"] is NSNull)
        #expect(sensors[0]["adapter"] as? String == "hci1" && sensors[1]["adapter"] is NSNull)
        let adapterObjects = try #require(object["adapters"] as? [[String: Any]])
        #expect(adapterObjects.map { $0["name"] as? String } == ["hci0", "hci1"])
        #expect(adapterObjects[1]["slots_used"] as? Int == 1 && adapterObjects[1]["slots_free"] as? Int == 1)
        #expect(adapterObjects[1]["straps"] as? [String] == ["F0:1D:2E:3C:00:01"] && adapterObjects[1]["slot_refusals"] as? Int == 1)
        let queue = try #require(object["queue"] as? [String: Any])
        #expect(queue["pending"] as? Int == 3 && (queue["db_bytes"] as? Int ?? 0) > 0)
        let uplink = try #require(object["uplink"] as? [String: Any])
        #expect(uplink["enrolled"] as? Bool == true && uplink["patient_id"] as? String == "40001")
        #expect(uplink["token_expired"] as? Bool == false && uplink["token_refreshes"] as? Int == 2)
        #expect(uplink["reenrolment_required"] is NSNull)
        #expect((uplink["last_error"] as? String)?.contains("HTTP 503") == true)
    }

    @Test("a stale report or a dead pid means 'daemon not running (last report …)', and re-enrolment shows from the credentials file")
    func notRunning() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        try Self.enrol(state, reenrolment: "the server no longer accepts this gateway's grant (invalid_grant)")
        try StatusReportFile.write(StatusReportFixtures.report(writtenAgo: 60, refreshSeconds: 5, sensors: []), directory: state.path)
        let stale = try await Self.run(state)
        #expect(stale.outputLines.contains { $0.contains("daemon not running (last report") && $0.contains("older than 3 × 5 s") })
        #expect(stale.outputLines.contains { $0.contains("re-enrolment") && $0.contains("REQUIRED") })
        let object = try Self.json(try await Self.run(state, ["--json"]))
        #expect(
            (object["uplink"] as? [String: Any])?["reenrolment_required"] as? String == "the server no longer accepts this gateway's grant (invalid_grant)")

        let child = try ChildProcess("/bin/true", [])
        child.wait()
        try StatusReportFile.write(StatusReportFixtures.report(pid: child.pid, sensors: []), directory: state.path)
        let dead = try await Self.run(state, ["--json"])
        let daemon = try #require(try Self.json(dead)["daemon"] as? [String: Any])
        #expect(daemon["running"] as? Bool == false)
        #expect((daemon["detail"] as? String)?.contains("pid \(child.pid) is gone") == true)
    }

    @Test("an unsynchronised clock is described by what it does to samples: held, or sent with its time when the hold is off")
    func clockHeadingFollowsTheHold() {
        func clockLine(holding: Bool) -> String? {
            var configuration = GatewayConfiguration()
            configuration.gateway.holdUntilClockSync = holding
            let snapshot = GatewaySnapshot(
                stateDirectory: "/state", configuration: configuration, now: Date(), report: nil,
                liveness: DaemonLiveness(report: nil, reportProblem: nil, now: Date()), bindings: [], bindingsProblem: nil,
                queue: .success(nil), held: .success(nil), movedAside: [], credentials: .success(nil), clockSynchronized: false, console: nil)
            return StatusText.render(snapshot).first { $0.hasPrefix("clock") }
        }
        #expect(clockLine(holding: true)?.hasSuffix("NOT synchronised (samples are held until it is)") == true)
        #expect(clockLine(holding: false)?.hasSuffix("NOT synchronised (samples are sent with its time: hold_until_clock_sync is off)") == true)
    }

    @Test("--history prints the upload attempts as an aligned table, or as JSON lines")
    func history() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let empty = try await Self.run(state, ["--history"])
        #expect(empty.outputLines == ["no upload attempts recorded yet"])
        let history = UploadHistory(directory: state.path)
        try history.record(StatusReportFixtures.attempt(1))
        try history.record(StatusReportFixtures.attempt(2, error: "HTTP 503 from 127.0.0.1:9"))
        let table = try await Self.run(state, ["--history"])
        #expect(table.outputLines.count == 3)
        #expect(table.outputLines[0].hasPrefix("STARTED"))
        #expect(table.outputLines[2].hasSuffix("HTTP 503 from 127.0.0.1:9"))
        let lines = try await Self.run(state, ["--history", "--json"])
        #expect(
            lines.outputLines == [
                #"{"started_at":"2027-01-15T08:00:01.000Z","duration_s":0.25,"samples":1,"delivered":1,"duplicate":0,"rejected":0,"held":0,"skipped":0,"retry_later":0,"error":null}"#,
                #"{"started_at":"2027-01-15T08:00:02.000Z","duration_s":0.25,"samples":2,"delivered":2,"duplicate":0,"rejected":0,"held":0,"skipped":0,"retry_later":0,"error":"HTTP 503 from 127.0.0.1:9"}"#,
            ])
    }
}
