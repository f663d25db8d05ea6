import BlueZSimulator
import Foundation
import GatewayTestSupport
import Testing

/// Runs the real `edge-gateway` under the unit's seccomp rules (deploy/sandbox-check): the
/// system-call allow list, MemoryDenyWriteExecute and RestrictAddressFamilies, which systemd
/// would apply but cannot here because it is not PID 1.
@Suite("deploy/sandbox-check")
struct SandboxTests {
    static let sandbox = DeployTree.path("deploy/sandbox-check/sandbox-run.sh")
    static let binary = GatewayProcess.productsDirectory.appendingPathComponent("edge-gateway").path
    static let lab = GatewayProcess.productsDirectory.appendingPathComponent("edge-gateway-lab").path

    @Test("the sandbox is real: a netlink socket, setuid and a writable executable mapping are refused; a thread's nice value is not")
    func sandboxRefuses() async throws {
        let script = """
            import errno, mmap, os, socket
            for name, attempt in [
                ("netlink", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW)),
                ("setuid", lambda: os.setuid(0)),
                ("wx-mapping", lambda: mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)),
                ("nice-0", lambda: os.setpriority(os.PRIO_PROCESS, 0, 0)),
            ]:
                try:
                    attempt()
                    print(name, "allowed")
                except OSError as error:
                    print(name, errno.errorcode[error.errno])
            """
        let result = try await DeployTree.run(Self.sandbox, ["python3", "-c", script])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.outputLines == ["netlink EAFNOSUPPORT", "setuid EPERM", "wx-mapping EPERM", "nice-0 allowed"],
            "libdispatch sets each worker thread's nice value; refused, it prints a line into the journal per thread")
    }

    @Test("edge-gateway live streams samples from a simulated bluetoothd inside the sandbox (D-Bus, fd passing, clock state)")
    func liveRunsSandboxed() async throws {
        let bus = try PrivateBus()
        let simulator = BluetoothdSimulator(
            busAddress: bus.address, straps: SimulatedStrap.fleet(count: 1, notificationInterval: .milliseconds(100)))
        try await simulator.start()
        let state = try TemporaryDirectory("deploy-sandbox-live")
        defer { state.remove() }
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]

        let live = try await DeployTree.run(
            Self.sandbox, [Self.binary, "live", "F0:1D:2E:3C:00:01", "--count", "5", "--json", "--state-dir", state.path],
            environment: environment)
        #expect(live.status == 0, "\(live.standardError)")
        #expect(live.outputLines.count == 5)
        #expect(live.outputLines.allSatisfy { $0.contains(#""address":"F0:1D:2E:3C:00:01""#) })
        await simulator.stop()
        bus.stop()
    }

    @Test("edge-gateway enroll reaches a JHE simulator over HTTP and writes its credentials inside the sandbox")
    func enrollRunsSandboxed() async throws {
        let server = try ChildProcess(Self.lab, ["jhe-simulator", "--port", "0"], captureOutput: true)
        defer { server.terminate() }
        var link: String?
        while link == nil, let line = server.readLine() {
            link = line.components(separatedBy: "invitation link: ").dropFirst().first
        }
        let invitation = try #require(link, "jhe-simulator printed no invitation link")
        let state = try TemporaryDirectory("deploy-sandbox-enroll")
        defer { state.remove() }

        let enroll = try await DeployTree.run(Self.sandbox, [Self.binary, "enroll", invitation, "--device", "70001", "--state-dir", state.path])
        #expect(enroll.status == 0, "\(enroll.standardError)")
        #expect(enroll.outputLines.contains("state: ok"))
        #expect(try DeployTree.mode(state.file("credentials.json")) == 0o600)
    }

    @Test("the queue (SQLite in WAL mode) commits and reports inside the sandbox")
    func queueRunsSandboxed() async throws {
        let state = try TemporaryDirectory("deploy-sandbox-queue")
        defer { state.remove() }
        let append = try await DeployTree.run(
            Self.sandbox, [Self.lab, "append-numbered", "--count", "100", "--state-dir", state.path])
        #expect(append.status == 0, "\(append.standardError)")
        #expect(append.outputLines.count == 100)
        let stats = try await DeployTree.run(Self.sandbox, [Self.binary, "queue", "stats", "--json", "--state-dir", state.path])
        #expect(stats.status == 0, "\(stats.standardError)")
        #expect(stats.standardOutput.contains(#""pending":100"#))
    }
}
