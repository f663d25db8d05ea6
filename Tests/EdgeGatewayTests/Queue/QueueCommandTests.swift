import Foundation
import GATTHeartRate
@testable import GatewayCommandLine
@testable import GatewayConfiguration
@testable import GatewayDaemon
@testable import GatewayOperations
@testable import GatewayPipeline
import GatewayTestSupport
import Logging
import OfflineQueue
import PipelineTestSupport
import Testing

/// Runs the real `edge-gateway queue …` binary against a queue this test process keeps open as
/// its owner, the way a technician runs it next to the daemon.
@Suite("edge-gateway queue")
struct QueueCommandTests {
    /// A state directory with an open owner queue holding `count` samples.
    static func ownedQueue(samples count: Int) async throws -> (TemporaryDirectory, OfflineQueue, [Int64]) {
        let directory = try TemporaryDirectory("queue-cli")
        var configuration = QueueConfiguration()
        configuration.commitInterval = .milliseconds(5)
        let queue = try OfflineQueue(path: directory.file("queue.sqlite"), configuration: configuration)
        let ids = try await queue.append(contentsOf: (0 ..< count).map { try SampleRecordCodec.record(for: SampleFixtures.sample($0 + 1)) })
        return (directory, queue, ids)
    }

    @Test("stats --json prints the documented keys while the owner has the queue open")
    func statsJSON() async throws {
        let (directory, queue, ids) = try await Self.ownedQueue(samples: 3)
        defer { directory.remove() }
        _ = try await queue.lease(max: 1)
        try await queue.reject([ids[2]], reason: "HTTP 400")
        let result = try await GatewayProcess.run(["queue", "stats", "--json", "--state-dir", directory.path])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        // The lease lives in the owner's memory (the records of its ingest journal are its own
        // until retired), so another process counts the leased record as pending.
        #expect(object["pending"] as? Int == 2)
        #expect(object["leased"] as? Int == 0)
        #expect(object["dead"] as? Int == 1)
        #expect(object["evicted"] as? Int == 0)
        #expect((object["oldest_pending_age_s"] as? Double ?? 0) > 0)
        #expect((object["db_bytes"] as? Int ?? 0) > 0)
        #expect(result.outputLines.count == 1)
        await queue.close()
    }

    @Test("stats without --json prints one labelled line per figure")
    func statsHuman() async throws {
        let (directory, queue, _) = try await Self.ownedQueue(samples: 2)
        defer { directory.remove() }
        let result = try await GatewayProcess.run(["queue", "stats", "--state-dir", directory.path])
        #expect(result.status == 0)
        #expect(
            result.outputLines.map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == ["pending", "leased", "dead", "evicted", "oldest", "database", "held"])
        #expect(result.outputLines[0] == "pending              2")
        await queue.close()
    }

    @Test(
        "samples held for the clock are counted by stats, exported with --held, and release-held moves them: this boot's re-stamped, another boot's to dead letters"
    )
    func heldSamples() async throws {
        let (directory, queue, _) = try await Self.ownedQueue(samples: 1)
        defer { directory.remove() }
        let system = CaptureClock().now()
        var ours = SampleFixtures.sample(2)
        ours.captured = CaptureTime(
            wallClockNanoseconds: 1_700_000_000_000_000_000, wallClockSynchronized: false,
            monotonicNanoseconds: system.monotonicNanoseconds - 60_000_000_000, bootID: system.bootID)
        var earlierBoot = SampleFixtures.sample(3)
        earlierBoot.captured.wallClockSynchronized = false
        let held = try OfflineQueue(
            path: directory.file(HeldSamples.fileName),
            configuration: Gateway.queueSettings(GatewayConfiguration.Queue(), logger: Logger(label: "test"), held: true))
        _ = try await held.append(contentsOf: [ours, earlierBoot].map(SampleRecordCodec.record(for:)))

        let stats = try await GatewayProcess.run(["queue", "stats", "--json", "--state-dir", directory.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.standardOutput.utf8)) as? [String: Any])
        #expect(object["pending"] as? Int == 1)
        #expect(object["held"] as? Int == 2)
        let export = try await GatewayProcess.run(["queue", "export", "--held", "--state-dir", directory.path])
        #expect(export.outputLines.count == 2 && export.standardOutput.contains(ours.id.uuidString.lowercased()))

        let release = try await GatewayProcess.run(["queue", "release-held", "--state-dir", directory.path])
        #expect(release.status == 0, "\(release.standardError)")
        #expect(release.standardOutput.hasPrefix("released 2 held sample(s): 1 re-stamped and queued, 1 from an earlier boot to dead letters"))
        #expect(try await held.stats().pending == 0)
        let queued = try await queue.lease(max: 10).records.map { try SampleRecordCodec.sample(from: $0) }
        #expect(queued.map(\.id) == [SampleFixtures.sample(1).id, ours.id])
        let restamped = try #require(queued.last).captured.wallClockNanoseconds
        let expected = system.wallClockNanoseconds - 60_000_000_000
        #expect(abs(restamped - expected) < 600_000_000_000, "re-stamped from the monotonic clock: \(restamped) vs about \(expected)")
        #expect(try await queue.deadLetters().map { $0.reason.prefix(18) } == ["clock-unrepairable"])
        await held.close()
        await queue.close()
    }

    @Test("dead lists reasons; retry-dead --reason moves only the matching ones back")
    func deadAndRetry() async throws {
        let (directory, queue, ids) = try await Self.ownedQueue(samples: 3)
        defer { directory.remove() }
        try await queue.reject([ids[0]], reason: "HTTP 400: unknown patient")
        try await queue.reject([ids[1]], reason: "HTTP 422: schema")

        let dead = try await GatewayProcess.run(["queue", "dead", "--json", "--state-dir", directory.path])
        #expect(dead.status == 0)
        #expect(dead.outputLines.count == 2)
        #expect(dead.outputLines[0].hasPrefix(#"{"id":\#(ids[0]),"stream":"F0:1D:2E:3C:4B:5A","capture_time_ns":1795000001000000000,"#))
        #expect(
            dead.outputLines[0].hasSuffix(
                #","version":2,"payload_bytes":\#(try SampleRecordCodec.record(for: SampleFixtures.sample(1)).payload.count),"reason":"HTTP 400: unknown patient"}"#
            )
        )

        let retry = try await GatewayProcess.run(["queue", "retry-dead", "--reason", "patient", "--state-dir", directory.path])
        #expect(retry.status == 0)
        #expect(retry.outputLines == ["moved 1 dead letter(s) back to pending"])
        #expect(try await queue.deadLetters().map(\.reason) == ["HTTP 422: schema"])
        #expect(try await queue.stats().pending == 2)
        await queue.close()
    }

    @Test("export prints decoded samples as JSON lines and as CSV, in acceptance order")
    func export() async throws {
        let (directory, queue, ids) = try await Self.ownedQueue(samples: 2)
        defer { directory.remove() }
        let jsonl = try await GatewayProcess.run(["queue", "export", "--state-dir", directory.path])
        #expect(jsonl.status == 0, "\(jsonl.standardError)")
        #expect(
            jsonl.outputLines == [
                #"{"record_id":\#(ids[0]),"stream":"F0:1D:2E:3C:4B:5A","sample_id":"00000000-0000-4000-8000-000000000001","sensor":"F0:1D:2E:3C:4B:5A","patient_id":"patient-7","captured_utc":"2026-11-18T11:06:41.000Z","wall_clock_ns":1795000001000000000,"wall_clock_synchronized":true,"bpm":71,"contact":"detected","energy_expended_kj":null,"rr_intervals_ms":[705.078,695.312]}"#,
                #"{"record_id":\#(ids[1]),"stream":"F0:1D:2E:3C:4B:5A","sample_id":"00000000-0000-4000-8000-000000000002","sensor":"F0:1D:2E:3C:4B:5A","patient_id":"patient-7","captured_utc":"2026-11-18T11:06:42.000Z","wall_clock_ns":1795000002000000000,"wall_clock_synchronized":true,"bpm":72,"contact":"detected","energy_expended_kj":null,"rr_intervals_ms":[705.078,695.312]}"#,
            ])
        let csv = try await GatewayProcess.run(["queue", "export", "--format", "csv", "--state-dir", directory.path])
        #expect(csv.status == 0)
        #expect(
            csv.outputLines == [
                "record_id,stream,sample_id,sensor,patient_id,captured_utc,wall_clock_ns,wall_clock_synchronized,bpm,contact,energy_expended_kj,rr_intervals_ms",
                "\(ids[0]),F0:1D:2E:3C:4B:5A,00000000-0000-4000-8000-000000000001,F0:1D:2E:3C:4B:5A,patient-7,2026-11-18T11:06:41.000Z,1795000001000000000,true,71,detected,,705.078 695.312",
                "\(ids[1]),F0:1D:2E:3C:4B:5A,00000000-0000-4000-8000-000000000002,F0:1D:2E:3C:4B:5A,patient-7,2026-11-18T11:06:42.000Z,1795000002000000000,true,72,detected,,705.078 695.312",
            ])
        await queue.close()
    }

    @Test("export decodes version 1 (JSON) records written by earlier builds next to version 2 ones")
    func exportVersionOne() async throws {
        let (directory, queue, ids) = try await Self.ownedQueue(samples: 1)
        defer { directory.remove() }
        let old = SampleFixtures.sample(2, patient: nil)
        let oldID = try await queue.append(
            NewRecord(
                payload: try JSONEncoder().encode(old), stream: old.sensor.description,
                captureTime: old.captured.wallClockNanoseconds, version: 1))
        let result = try await GatewayProcess.run(["queue", "export", "--format", "csv", "--state-dir", directory.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.outputLines.dropFirst() == [
                "\(ids[0]),F0:1D:2E:3C:4B:5A,00000000-0000-4000-8000-000000000001,F0:1D:2E:3C:4B:5A,patient-7,2026-11-18T11:06:41.000Z,1795000001000000000,true,71,detected,,705.078 695.312",
                "\(oldID),F0:1D:2E:3C:4B:5A,00000000-0000-4000-8000-000000000002,F0:1D:2E:3C:4B:5A,,2026-11-18T11:06:42.000Z,1795000002000000000,true,72,detected,,705.078 695.312",
            ])
        await queue.close()
    }

    @Test("export reports a record that is not a sample, still prints the others, and exits 65")
    func exportForeignRecord() async throws {
        let (directory, queue, _) = try await Self.ownedQueue(samples: 1)
        defer { directory.remove() }
        let foreign = try await queue.append(NewRecord(payload: Data("{}".utf8), stream: "x", captureTime: 1_795_000_000_000_000_000, version: 9))
        let result = try await GatewayProcess.run(["queue", "export", "--state-dir", directory.path])
        #expect(result.status == 65)
        #expect(result.outputLines.count == 1)
        #expect(
            result.standardError.contains(
                "record \(foreign) has payload version 9; this edge-gateway reads versions 1 (JSON) and 2 (binary) [queue.unknown-record-version]"))
        await queue.close()
    }

    @Test("a state directory without a queue exits 66; bad usage exits 64")
    func failures() async throws {
        let directory = try TemporaryDirectory("queue-cli")
        defer { directory.remove() }
        let missing = try await GatewayProcess.run(["queue", "stats", "--state-dir", directory.path])
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("[queue.missing]"))
        let usage = try await GatewayProcess.run(["queue", "export", "--format", "xml", "--state-dir", directory.path])
        #expect(usage.status == 64)
    }

    @Test("a garbage queue file gives a clear error (65) and is left for the daemon to recover")
    func corruptFile() async throws {
        let directory = try TemporaryDirectory("queue-cli")
        defer { directory.remove() }
        try Data(repeating: 0x17, count: 4096).write(to: URL(fileURLWithPath: directory.file("queue.sqlite")))
        let result = try await GatewayProcess.run(["queue", "stats", "--state-dir", directory.path])
        #expect(result.status == 65)
        #expect(result.standardError.contains("[queue.corrupt]"))
    }

    @Test("a queue with an overwritten header is moved aside, listed by status and doctor, and `queue import` brings every sample back")
    func importMovedAside() async throws {
        let (directory, queue, _) = try await Self.ownedQueue(samples: 8)
        defer { directory.remove() }
        await queue.close()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("queue.sqlite")))
        try handle.write(contentsOf: Data(repeating: 0, count: 16))
        try handle.close()
        let fresh = try OfflineQueue(path: directory.file("queue.sqlite"))
        let moved = try #require(fresh.recovery?.movedAsidePaths.first)
        await fresh.close()

        let status = try await GatewayProcess.run(["status", "--state-dir", directory.path, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any])
        #expect((object["queue"] as? [String: Any])?["moved_aside"] as? [String] == [moved])
        let text = try await GatewayProcess.run(["status", "--state-dir", directory.path])
        #expect(text.standardOutput.contains("moved aside"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("edge-gateway queue import"))
        let doctor = HostChecks.movedAside(MovedAsideQueue.find(in: directory.path))
        #expect(!doctor.passed)
        #expect(doctor.fix?.contains("edge-gateway queue import") == true)

        let imported = try await GatewayProcess.run(["queue", "import", "--state-dir", directory.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.hasPrefix("imported 8 record(s) from \(moved)"), "\(imported.standardOutput)")
        #expect(imported.standardOutput.contains("its header was restored"))
        let export = try await GatewayProcess.run(["queue", "export", "--state-dir", directory.path])
        #expect(export.outputLines.count == 8)
        #expect(export.outputLines.allSatisfy { $0.contains("patient-7") })
        #expect(HostChecks.movedAside(MovedAsideQueue.find(in: directory.path)).passed)
        let again = try await GatewayProcess.run(["queue", "import", "--state-dir", directory.path])
        #expect(again.standardOutput.hasPrefix("no moved-aside queue files"), "an imported file is not imported twice")
        let notMovedAside = try await GatewayProcess.run(["queue", "import", directory.file("queue.sqlite"), "--state-dir", directory.path])
        #expect(notMovedAside.status == 64)
    }

    @Test("the daemon exits 73, which the unit does not restart, when it may not open its queue, and leaves the file alone")
    func inaccessibleQueueStopsTheDaemon() async throws {
        let directory = try TemporaryDirectory("queue-cli")
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.file("queue.sqlite"), withIntermediateDirectories: false)
        let result = try await GatewayProcess.run(["run", "--state-dir", directory.path])
        #expect(result.status == 73, "\(result.standardError)")
        #expect(result.standardError.contains("queue.inaccessible"))
        #expect(result.standardError.contains("nothing was moved aside"))
        #expect(MovedAsideQueue.find(in: directory.path).isEmpty)
    }

    @Test(
        "the lab's append-numbered (a testing aid) needs an explicit scratch --state-dir, refuses a gateway's state and absurd numbers, and creates its directory 0700"
    )
    func appendNumberedIsSafe() async throws {
        let directory = try TemporaryDirectory("queue-cli")
        defer { directory.remove() }
        let noStateDir = try await GatewayProcess.run(
            ["append-numbered", "--count", "1"], product: "edge-gateway-lab", environment: ["EDGE_GATEWAY_STATE_DIR": directory.path])
        #expect(noStateDir.status == 64)
        for arguments in [["--chunk", "0"], ["--workers", "0"], ["--first", "9223372036854775800"], ["--count", "-1"]] {
            let refused = try await GatewayProcess.run(["append-numbered", "--state-dir", directory.file("scratch")] + arguments, product: "edge-gateway-lab")
            #expect(refused.status == 64, "\(arguments): \(refused.standardError)")
        }
        let scratch = directory.file("scratch")
        let nearTheEnd = try await GatewayProcess.run(
            ["append-numbered", "--state-dir", scratch, "--first", "\((1 << 62) - 3)", "--workers", "2", "--chunk", "2"], product: "edge-gateway-lab")
        #expect(nearTheEnd.status == 0, "\(nearTheEnd.standardError)")
        #expect(nearTheEnd.outputLines.sorted() == ["4611686018427387901", "4611686018427387902", "4611686018427387903"])
        let mode = try FileManager.default.attributesOfItem(atPath: scratch)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o700)

        try Data("{}".utf8).write(to: URL(fileURLWithPath: directory.file("credentials.json")))
        let deployed = try await GatewayProcess.run(["append-numbered", "--state-dir", directory.path, "--count", "1"], product: "edge-gateway-lab")
        #expect(deployed.status == 64)
        #expect(deployed.standardError.contains("holds credentials.json"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("queue.sqlite")))
    }
}
