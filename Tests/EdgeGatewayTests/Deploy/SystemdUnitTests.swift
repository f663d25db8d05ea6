import Foundation
import GatewayTestSupport
import Testing

/// Checks `deploy/edge-gateway.service` with systemd's own offline tools (systemd is not PID 1
/// in CI, so nothing is started).
@Suite("deploy/edge-gateway.service")
struct SystemdUnitTests {
    static let unit = DeployTree.path("deploy/edge-gateway.service")

    /// `systemd-analyze security --offline=yes --json=short`: one entry per check.
    static func securityChecks() async throws -> [String: (set: Bool, description: String)] {
        let result = try await DeployTree.run("systemd-analyze", ["security", "--offline=yes", "--json=short", unit])
        let entries = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]] ?? []
        return Dictionary(
            uniqueKeysWithValues: entries.compactMap { entry in
                (entry["json_field"] as? String).map { ($0, (entry["set"] as? Bool ?? false, entry["description"] as? String ?? "")) }
            })
    }

    @Test("systemd-analyze security --offline rates the unit's exposure 2.5 or less")
    func exposureStaysLow() async throws {
        let result = try await DeployTree.run("systemd-analyze", ["security", "--offline=yes", "--threshold=25", "--no-pager", Self.unit])
        let overall = result.outputLines.first { $0.contains("Overall exposure level") } ?? "no overall line"
        #expect(result.status == 0, "exposure above 2.5: \(overall)\n\(result.standardError)")
        #expect(overall.contains("edge-gateway.service"), "\(result.standardOutput)")
    }

    @Test("systemd-analyze verify accepts the installed unit without a single warning")
    func verifiesCleanly() async throws {
        let directory = try TemporaryDirectory("deploy-verify")
        defer { directory.remove() }
        let binary = GatewayProcess.productsDirectory.appendingPathComponent("edge-gateway").path
        let (root, staged) = try await DeployTree.stage(into: directory, binary: binary)
        #expect(staged.status == 0, "\(staged.standardError)")
        // The targets every service depends on by default, so verify can load the unit's graph.
        let targets = root + "/lib/systemd/system"
        try FileManager.default.createDirectory(atPath: targets, withIntermediateDirectories: true)
        for target in ["sysinit.target", "basic.target", "shutdown.target", "multi-user.target"] {
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: "/lib/systemd/system/\(target)").resolvingSymlinksInPath(),
                to: URL(fileURLWithPath: "\(targets)/\(target)"))
        }
        // ExecReload's kill(1), from procps, which the .deb depends on.
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/bin/kill", toPath: root + "/bin/kill")
        let result = try await DeployTree.run(
            "systemd-analyze", ["verify", "--root=\(root)", root + "/usr/lib/systemd/system/edge-gateway.service"])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty, "systemd-analyze verify warned:\n\(result.standardError)")
    }

    @Test("the sandbox leaves the daemon what it needs: clock_adjtime for clock sync, /proc/sys for the boot id")
    func sandboxKeepsWhatTheDaemonNeeds() async throws {
        let checks = try await Self.securityChecks()
        let clock = try #require(checks["SystemCallFilter_clock"])
        #expect(
            !clock.set && clock.description.contains("clock_adjtime is allowed"),
            "glibc's adjtimex() is the clock_adjtime system call: without it the daemon is killed (or, with EPERM, misreads the sync state)")
        #expect(checks["ProtectClock"]?.set == false, "ProtectClock=yes makes clock_adjtime fail with EPERM, read as 'synchronised'")
        #expect(checks["ProcSubset"]?.set == false, "ProcSubset=pid hides /proc/sys/kernel/random/boot_id")
        #expect(checks["PrivateNetwork"]?.set == false, "the daemon must reach JHE")
        #expect(checks["RestrictAddressFamilies_AF_UNIX"]?.set == false, "D-Bus is an AF_UNIX socket")
        #expect(checks["NoNewPrivileges"]?.set == true)
        #expect(checks["CapabilityBoundingSet_CAP_SYS_ADMIN"]?.set == true)
    }
}
