import Foundation
import GatewayTestSupport
import Testing

/// Runs `scripts/build-deb.sh` on a small stand-in executable (the real one needs a release
/// build with the static Swift runtime, 10–20 minutes here) and installs the package with dpkg
/// into a temporary root, running the maintainer scripts there.
@Suite("scripts/build-deb.sh")
struct DebianPackageTests {
    /// Compiles a C program that answers `--version` and links libdbus-1, as the gateway does.
    static func standIn(in directory: TemporaryDirectory) async throws -> String {
        let source = directory.file("stand-in.c")
        try Data(
            """
            #include <dbus/dbus.h>
            #include <stdio.h>
            #include <string.h>
            int main(int argc, char **argv) {
                if (argc > 1 && strcmp(argv[1], "--version") == 0) { puts("0.1.0"); return 0; }
                DBusError error;
                dbus_error_init(&error);
                return 0;
            }
            """.utf8
        ).write(to: URL(fileURLWithPath: source))
        let flags = try await DeployTree.run("pkg-config", ["--cflags", "--libs", "dbus-1"])
        let binary = directory.file("edge-gateway")
        let compiled = try await DeployTree.run(
            "clang", ["-o", binary, source] + flags.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(compiled.status == 0, "\(compiled.standardError)")
        return binary
    }

    /// Builds the package and returns its path.
    static func build(in directory: TemporaryDirectory) async throws -> String {
        let example = directory.file("gateway.toml.example")
        try Data("[gateway]\nname = \"example\"\n".utf8).write(to: URL(fileURLWithPath: example))
        let result = try await DeployTree.run(
            DeployTree.path("scripts/build-deb.sh"),
            ["--binary", try await standIn(in: directory), "--output", directory.file("out"), "--config-example", example])
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(result.outputLines.last)
    }

    /// `dpkg --root=ROOT` with the maintainer scripts run outside a chroot (they honour DPKG_ROOT).
    static func dpkg(_ root: String, _ arguments: [String]) async throws -> GatewayProcess.Result {
        try await DeployTree.run("dpkg", ["--root=\(root)", "--force-script-chrootless", "--force-depends"] + arguments)
    }

    @Test("the package declares its real library dependencies, bluez, the conffile and the maintainer scripts")
    func declaresWhatItNeeds() async throws {
        let directory = try TemporaryDirectory("deploy-deb")
        defer { directory.remove() }
        let package = try await Self.build(in: directory)
        let architecture = try await DeployTree.run("dpkg", ["--print-architecture"]).standardOutput
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(package.hasSuffix("_\(architecture).deb"))
        let info = try await DeployTree.run("dpkg-deb", ["--info", package])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.standardOutput.contains("Package: edge-gateway"))
        #expect(info.standardOutput.contains("Version: 0.1.0+git"))
        let depends = try #require(info.outputLines.first { $0.hasPrefix(" Depends: ") })
        for dependency in ["libc6 (>=", "libdbus-1-3 (>=", "bluez", "systemd", "procps"] {
            #expect(depends.contains(dependency), "\(depends)")
        }
        // One line per control member; newer dpkg-deb drops the trailing blanks after its name.
        let members = info.outputLines.map { $0.split(whereSeparator: \.isWhitespace) }
        for script in ["postinst", "prerm", "postrm", "conffiles", "md5sums"] {
            #expect(members.contains { $0.contains(Substring(script)) }, "\(script) missing:\n\(info.standardOutput)")
        }
        let conffiles = try await DeployTree.run("dpkg-deb", ["--info", package, "conffiles"])
        #expect(conffiles.outputLines == ["/etc/edge-gateway/gateway.toml"])
        let contents = try await DeployTree.run("dpkg-deb", ["--contents", package])
        for line in [
            "-rwxr-xr-x root/root", "./usr/bin/edge-gateway",
            "./usr/lib/systemd/system/edge-gateway.service", "./usr/lib/sysusers.d/edge-gateway.conf",
            "./usr/lib/systemd/system/bluetooth.service.d/edge-gateway.conf",
            "./etc/edge-gateway/gateway.toml", "./usr/share/doc/edge-gateway/copyright",
            "./usr/share/doc/edge-gateway/monitoring/edge-gateway.rules.yml",
            "./usr/share/doc/edge-gateway/monitoring/edge-gateway.grafana.json",
        ] {
            #expect(contents.standardOutput.contains(line), "\(line) missing:\n\(contents.standardOutput)")
        }
        #expect(!contents.standardOutput.contains("DEBIAN"))
    }

    /// A fresh dpkg database under `directory`/target, and the package built beside it.
    static func dpkgRoot(in directory: TemporaryDirectory) async throws -> (root: String, package: String) {
        let package = try await Self.build(in: directory)
        let root = directory.file("target")
        for path in ["var/lib/dpkg/info", "var/lib/dpkg/updates", "var/lib/dpkg/triggers", "etc"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(path)", withIntermediateDirectories: true)
        }
        #expect(FileManager.default.createFile(atPath: root + "/var/lib/dpkg/status", contents: nil))
        return (root, package)
    }

    @Test("installing creates the user, state directory and enablement; an upgrade keeps the edited config; purge keeps a queue it cannot count")
    func installsUpgradesAndPurges() async throws {
        let directory = try TemporaryDirectory("deploy-dpkg")
        defer { directory.remove() }
        let (root, package) = try await Self.dpkgRoot(in: directory)

        let install = try await Self.dpkg(root, ["--install", package])
        #expect(install.status == 0, "\(install.standardError)")
        let passwd = try String(contentsOfFile: root + "/etc/passwd", encoding: .utf8)
        #expect(passwd.contains("edge-gateway:x:"))
        #expect(try DeployTree.mode(root + "/var/lib/edge-gateway") == 0o700)
        let wants = root + "/etc/systemd/system/multi-user.target.wants/edge-gateway.service"
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: wants) == "/usr/lib/systemd/system/edge-gateway.service")

        let config = root + "/etc/edge-gateway/gateway.toml"
        let edited = "[gateway]\nname = \"ward 7\"\n"
        try Data(edited.utf8).write(to: URL(fileURLWithPath: config))
        let upgrade = try await Self.dpkg(root, ["--force-confold", "--install", package])
        #expect(upgrade.status == 0, "\(upgrade.standardError)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == edited)

        // A queue prerm could not count (in a dpkg --root install it does not run the program).
        #expect(FileManager.default.createFile(atPath: root + "/var/lib/edge-gateway/queue.sqlite", contents: Data("x".utf8)))
        let purge = try await Self.dpkg(root, ["--purge", "edge-gateway"])
        #expect(purge.status == 0, "\(purge.standardError)")
        #expect(!FileManager.default.fileExists(atPath: root + "/usr/bin/edge-gateway"))
        #expect(!FileManager.default.fileExists(atPath: config))
        #expect(FileManager.default.fileExists(atPath: root + "/var/lib/edge-gateway/queue.sqlite"), "undelivered samples may live there")
        #expect(purge.standardOutput.contains("kept /var/lib/edge-gateway and the user edge-gateway: the queue holds unknown sample(s)"))
        #expect(try String(contentsOfFile: root + "/etc/passwd", encoding: .utf8).contains("edge-gateway:x:"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: wants)) == nil)
    }

    @Test("purge removes the state directory and the user when no queue holds undelivered samples")
    func purgeRemovesEmptyState() async throws {
        let directory = try TemporaryDirectory("deploy-dpkg-purge")
        defer { directory.remove() }
        let (root, package) = try await Self.dpkgRoot(in: directory)
        let install = try await Self.dpkg(root, ["--install", package])
        #expect(install.status == 0, "\(install.standardError)")
        let purge = try await Self.dpkg(root, ["--purge", "edge-gateway"])
        #expect(purge.status == 0, "\(purge.standardError)")
        #expect(!FileManager.default.fileExists(atPath: root + "/var/lib/edge-gateway"))
        #expect(!(try String(contentsOfFile: root + "/etc/passwd", encoding: .utf8).contains("edge-gateway:x:")))
        #expect(purge.standardOutput.contains("removed /var/lib/edge-gateway and the user edge-gateway"))
    }
}
