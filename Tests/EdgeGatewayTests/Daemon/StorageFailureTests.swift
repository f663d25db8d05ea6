import BlueZSimulator
import Foundation
import GatewayTestSupport
import Glibc
import PipelineTestSupport
import Testing

/// The state directory's file system failing under the running daemon, as an SD card's ext4
/// does (`errors=remount-ro`): a real loop-mounted ext4, turned read-only by the kernel's own
/// error path (`/sys/fs/ext4/<dev>/trigger_fs_error`). Needs root and a loop device.
///
/// Whether this machine can: tried once with a small image (a container may have
/// /dev/loop-control and still refuse the mount).
private let canMountImages: Bool = {
    guard getuid() == 0, FileManager.default.fileExists(atPath: "/dev/loop-control") else { return false }
    guard let directory = try? TemporaryDirectory("loop-probe") else { return false }
    defer { directory.remove() }
    let (image, mountPoint) = (directory.file("probe.img"), directory.file("mnt"))
    let probe = "truncate -s 4M \(image) && mkfs.ext4 -q \(image) && mkdir \(mountPoint) && mount -o loop \(image) \(mountPoint) && umount \(mountPoint)"
    return (try? StorageFailureTests.shell(probe)) != nil
}()

@Suite("Daemon storage failure", .serialized, .enabled(if: canMountImages, "needs root and a loop-mountable ext4 (mkfs.ext4, mount -o loop)"))
struct StorageFailureTests {
    @Test(
        "ext4 turned read-only mid-run: one error line, status and /metrics say so, exit 73 at max_in_memory saying how many samples were lost, every sample accepted before is kept"
    )
    func readOnlyMidRun() async throws {
        let fixture = try await DaemonFixture.start(straps: 2, interval: .milliseconds(50))
        defer { Task { await fixture.stop() } }
        let state = fixture.stateDirectory
        let image = fixture.directory.file("state.img")
        try Self.shell("truncate -s 64M \(image) && mkfs.ext4 -q \(image) && mv \(state) \(state).enrolled && mkdir \(state)")
        try Self.shell("mount -o loop,errors=remount-ro \(image) \(state) && cp -a \(state).enrolled/. \(state)/ && chmod 700 \(state)")
        defer { _ = try? Self.shell("umount \(state)") }
        let runtime = fixture.directory.file("run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let port = try DaemonEndToEndTests.freeLoopbackPort()
        let daemon = try fixture.startDaemon(extra: [
            "EDGE_GATEWAY_QUEUE_MAX_IN_MEMORY": "300", "RUNTIME_DIRECTORY": runtime, "EDGE_GATEWAY_METRICS_LISTEN": "127.0.0.1:\(port)",
        ])
        try await waitUntil(timeout: .seconds(120), polling: .milliseconds(200)) {
            try (fixture.statusReport()?.sensors ?? []).contains { $0.samplesDelivered > 0 }
        }

        let device = try Self.shell("basename $(findmnt -no SOURCE \(state))").trimmingCharacters(in: .whitespacesAndNewlines)
        try Self.shell("echo 1 > /sys/fs/ext4/\(device)/trigger_fs_error")
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(100)) {
            try daemon.exitStatusIfEnded() != nil || fixture.statusReport()?.storageFault != nil
        }
        let fault = try #require(try fixture.statusReport()?.storageFault, "the daemon exited before reporting the fault")
        #expect(fault.contains("queue.storage-failed"))
        let status = try await fixture.command(["status"])
        #expect(status.standardOutput.contains("storage") && status.standardOutput.contains("FAILING"), "\(status.standardOutput)")
        let metrics = try? await LoopbackHTTP.get("http://127.0.0.1:\(port)/metrics")
        #expect(metrics.map { String(decoding: $0.body, as: UTF8.self).contains("edge_gateway_storage_fault 1") } ?? false)

        let exit = try await DaemonFixture.waitForExit(daemon, timeout: .seconds(120))
        #expect(ChildProcess.terminationStatus(exit) == 73, "wait status \(exit)")
        let log = try fixture.daemonLog()
        #expect(log.count { $0.contains("queue cannot commit: the file system refuses writes") } == 1)
        #expect(log.contains { $0.contains("stopping (exit status 73)") })
        #expect(log.contains { $0.contains("samples received since could not be kept") })
        #expect(!log.contains { $0.contains("every accepted sample is on disk") })

        // What the daemon called accepted is on the card: in the queue or at the server.
        try Self.shell("umount \(state) && e2fsck -fy \(image) >/dev/null 2>&1; mount -o loop \(image) \(state)")
        let queued = try await fixture.queuedSampleIDs()
        let stored = Set(try await fixture.serverSamples().map(\.id))
        let accepted = try fixture.acceptedSampleIDs()
        #expect(!accepted.isEmpty)
        #expect(accepted.subtracting(queued).subtracting(stored).isEmpty, "\(accepted.subtracting(queued).subtracting(stored).count) accepted samples lost")
    }

    /// Runs `command` with `sh -c`; its standard output, or an error with its standard error.
    @discardableResult
    static func shell(_ command: String) throws -> String {
        let scratch = try TemporaryDirectory("shell")
        defer { scratch.remove() }
        let status = try ChildProcess("/bin/sh", ["-c", command], outputPath: scratch.file("out"), errorPath: scratch.file("err")).wait()
        let text = (try? String(contentsOfFile: scratch.file("out"), encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw FixtureError("\(command): wait status \(status): \((try? String(contentsOfFile: scratch.file("err"), encoding: .utf8)) ?? "")")
        }
        return text
    }
}
