import Foundation
import GatewayTestSupport
import Testing

/// Runs `deploy/install.sh` into a temporary destination directory (systemd is not PID 1 in CI:
/// the layout and modes are checked, not a service start).
@Suite("deploy/install.sh")
struct InstallScriptTests {
    static let binary = GatewayProcess.productsDirectory.appendingPathComponent("edge-gateway").path

    @Test("stages the binary, unit, bluetoothd restart drop-in, sysusers and tmpfiles entries, docs and config with their modes")
    func stagesTheLayout() async throws {
        let directory = try TemporaryDirectory("deploy-install")
        defer { directory.remove() }
        let (root, result) = try await DeployTree.stage(into: directory, binary: Self.binary)
        #expect(result.status == 0, "\(result.standardError)")
        let expected: [(String, Int)] = [
            ("/usr/bin/edge-gateway", 0o755),
            ("/usr/lib/systemd/system/edge-gateway.service", 0o644),
            ("/usr/lib/systemd/system/bluetooth.service.d/edge-gateway.conf", 0o644),
            ("/usr/lib/sysusers.d/edge-gateway.conf", 0o644),
            ("/usr/lib/tmpfiles.d/edge-gateway.conf", 0o644),
            ("/usr/share/doc/edge-gateway/README.md", 0o644),
            ("/usr/share/doc/edge-gateway/INSTALL.md", 0o644),
            ("/usr/share/doc/edge-gateway/LICENSE", 0o644),
            ("/usr/share/doc/edge-gateway/gateway.toml.example", 0o644),
            ("/usr/share/doc/edge-gateway/docs/operations.md", 0o644),
            ("/usr/share/doc/edge-gateway/docs/configuration.md", 0o644),
            ("/usr/share/doc/edge-gateway/docs/deployment.md", 0o644),
            ("/usr/share/doc/edge-gateway/docs/SECURITY.md", 0o644),
            ("/usr/share/doc/edge-gateway/monitoring/edge-gateway.rules.yml", 0o644),
            ("/usr/share/doc/edge-gateway/monitoring/edge-gateway.grafana.json", 0o644),
            ("/etc/edge-gateway/gateway.toml", 0o644),
        ]
        for (path, mode) in expected {
            #expect(try DeployTree.mode(root + path) == mode, "\(path)")
        }
        #expect(FileManager.default.contentsEqual(atPath: root + "/usr/bin/edge-gateway", andPath: Self.binary))
        #expect(
            FileManager.default.contentsEqual(
                atPath: root + "/usr/lib/systemd/system/edge-gateway.service", andPath: DeployTree.path("deploy/edge-gateway.service")))
        let dropIn = try String(contentsOfFile: root + "/usr/lib/systemd/system/bluetooth.service.d/edge-gateway.conf", encoding: .utf8)
        #expect(dropIn.contains("[Service]\nRestart=on-failure\n"))
        let installed = try await GatewayProcess.run(["--version"], executable: root + "/usr/bin/edge-gateway")
        #expect(installed.status == 0 && !installed.standardOutput.isEmpty)
    }

    @Test("a second run upgrades the binary and never overwrites an edited configuration")
    func keepsAnEditedConfiguration() async throws {
        let directory = try TemporaryDirectory("deploy-install-again")
        defer { directory.remove() }
        let (root, first) = try await DeployTree.stage(into: directory, binary: Self.binary)
        #expect(first.status == 0, "\(first.standardError)")
        let config = root + "/etc/edge-gateway/gateway.toml"
        let edited = "[gateway]\nname = \"ward 7\"\n"
        try Data(edited.utf8).write(to: URL(fileURLWithPath: config))
        let stale = root + "/usr/bin/edge-gateway"
        try Data("stale".utf8).write(to: URL(fileURLWithPath: stale))

        let (_, second) = try await DeployTree.stage(into: directory, binary: Self.binary)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == edited)
        #expect(second.standardOutput.contains("kept the existing"))
        #expect(FileManager.default.contentsEqual(atPath: stale, andPath: Self.binary))
    }

    @Test("--prefix /usr/local points ExecStart at the binary it installed")
    func followsThePrefix() async throws {
        let directory = try TemporaryDirectory("deploy-install-prefix")
        defer { directory.remove() }
        let (root, result) = try await DeployTree.stage(into: directory, binary: Self.binary, extraArguments: ["--prefix", "/usr/local"])
        #expect(result.status == 0, "\(result.standardError)")
        let unit = try String(contentsOfFile: root + "/usr/local/lib/systemd/system/edge-gateway.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/edge-gateway run --config /etc/edge-gateway/gateway.toml"))
        #expect(FileManager.default.isExecutableFile(atPath: root + "/usr/local/bin/edge-gateway"))
    }

    @Test("refuses a missing binary, a relative prefix and an unknown option, naming the problem")
    func refusesBadUsage() async throws {
        let directory = try TemporaryDirectory("deploy-install-usage")
        defer { directory.remove() }
        let (root, missing) = try await DeployTree.stage(into: directory, binary: directory.file("nowhere"))
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("no executable at \(directory.file("nowhere"))"))
        #expect(!FileManager.default.fileExists(atPath: root))
        let (_, relative) = try await DeployTree.stage(into: directory, binary: Self.binary, extraArguments: ["--prefix", "usr"])
        #expect(relative.status == 1 && relative.standardError.contains("--prefix must be an absolute path"))
        let (_, unknown) = try await DeployTree.stage(into: directory, binary: Self.binary, extraArguments: ["--force", "yes"])
        #expect(unknown.status == 1 && unknown.standardError.contains("unknown option --force"))
    }

    @Test("the sysusers entry creates user edge-gateway in group bluetooth, and tmpfiles its 0700 state directory")
    func createsTheUserAndStateDirectory() async throws {
        let directory = try TemporaryDirectory("deploy-sysusers")
        defer { directory.remove() }
        let (root, staged) = try await DeployTree.stage(into: directory, binary: Self.binary)
        #expect(staged.status == 0, "\(staged.standardError)")
        let sysusers = try await DeployTree.run("systemd-sysusers", ["--root=\(root)", "edge-gateway.conf"])
        #expect(sysusers.status == 0, "\(sysusers.standardError)")
        let passwd = try String(contentsOfFile: root + "/etc/passwd", encoding: .utf8)
        let user = try #require(passwd.split(separator: "\n").first { $0.hasPrefix("edge-gateway:") })
        #expect(user.hasSuffix(":/var/lib/edge-gateway:/usr/sbin/nologin"), "\(user)")
        let groups = try String(contentsOfFile: root + "/etc/group", encoding: .utf8).split(separator: "\n")
        let bluetooth = try #require(groups.first { $0.hasPrefix("bluetooth:") })
        #expect(bluetooth.split(separator: ":").last?.split(separator: ",").contains("edge-gateway") == true, "\(bluetooth)")

        let tmpfiles = try await DeployTree.run("systemd-tmpfiles", ["--root=\(root)", "--create", "edge-gateway.conf"])
        #expect(tmpfiles.status == 0, "\(tmpfiles.standardError)")
        let state = root + "/var/lib/edge-gateway"
        #expect(try DeployTree.mode(state) == 0o700)
        let owner = try FileManager.default.attributesOfItem(atPath: state)[.ownerAccountID] as? NSNumber
        let uid = user.split(separator: ":")[2]
        #expect(owner.map { String($0.intValue) } == String(uid))
    }
}
