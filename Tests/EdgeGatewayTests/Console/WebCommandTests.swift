import Foundation
import GatewayTestSupport
import Glibc
import Testing

/// The console beyond loopback, as a technician sets it up: `run` refuses without a password,
/// `web set-password` stores one, the daemon makes its certificate, `status` prints its
/// fingerprint, and a client that checks the certificate reaches the login page.
@Suite("Console: web set-password and the console beyond loopback", .serialized)
struct WebCommandTests {
    @Test("no password: exit 78 with the fix; a short one refused; then the daemon serves TLS with the certificate status names")
    func setUpBeyondLoopback() async throws {
        let fixture = try await DaemonFixture.start(straps: 1)
        defer { Task { await fixture.stop() } }
        let port = try DaemonEndToEndTests.freeLoopbackPort()
        let listen = ["EDGE_GATEWAY_WEB_LISTEN": "0.0.0.0:\(port)"]
        let refused = try await GatewayProcess.run(
            ["run", "--state-dir", fixture.stateDirectory], environment: fixture.environment.merging(listen) { $1 })
        #expect(refused.status == 78)
        #expect(refused.standardError.contains("needs a password: set one with `edge-gateway web set-password`"), "\(refused.standardError)")
        #expect(try fixture.statusReport() == nil, "nothing was started")

        let short = try await fixture.command(["web", "set-password", "--password-stdin"], standardInput: "hunter2\n")
        #expect(short.status == 64 && short.standardError.contains("use at least 10"))
        let set = try await fixture.command(["web", "set-password", "--password-stdin"], standardInput: "correct horse battery\n")
        #expect(set.status == 0, "\(set.standardError)")
        var mode = stat()
        #expect(stat(fixture.stateDirectory + "/web-password", &mode) == 0 && mode.st_mode & 0o777 == 0o600)

        let daemon = try fixture.startDaemon(extra: listen)
        try await waitUntil(timeout: .seconds(60), polling: .milliseconds(100)) { try fixture.statusReport()?.pid == daemon.pid }
        let status = try await GatewayProcess.run(["status", "--state-dir", fixture.stateDirectory], environment: fixture.environment.merging(listen) { $1 })
        let line = try #require(status.outputLines.first { $0.hasPrefix("console") }, "\(status.standardOutput)")
        let certificate = fixture.stateDirectory + "/web-tls.crt"
        let openssl = try await GatewayProcess.run(["x509", "-in", certificate, "-noout", "-fingerprint", "-sha256"], executable: "/usr/bin/openssl")
        let fingerprint = try #require(openssl.standardOutput.split(separator: "=").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(line.contains("https://0.0.0.0:\(port)/ (TLS, certificate SHA-256 \(fingerprint); password set)"), "\(line)")

        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count)
        let host = String(cString: name)
        let login = try await GatewayProcess.run(
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "30", "--cacert", certificate, "--resolve", "\(host):\(port):127.0.0.1",
                "https://\(host):\(port)/login",
            ], executable: "/usr/bin/curl")
        #expect(login.standardOutput == "200", "the certificate names the host: \(login.standardError)")
        let plain = try await GatewayProcess.run(
            ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "30", "http://127.0.0.1:\(port)/"], executable: "/usr/bin/curl")
        #expect(plain.standardOutput == "000", "no page over plain HTTP")
        daemon.signal(SIGTERM)
        #expect(try await DaemonFixture.waitForExit(daemon) == 0)
    }

    @Test("a certificate without its key is refused before anything starts")
    func certificateWithoutKey() async throws {
        let fixture = try await DaemonFixture.start(straps: 1)
        defer { Task { await fixture.stop() } }
        #expect(try await fixture.command(["web", "set-password", "--password-stdin"], standardInput: "correct horse battery\n").status == 0)
        let certificate = fixture.directory.file("operator.crt")
        FileManager.default.createFile(atPath: certificate, contents: Data("not yet\n".utf8))
        let refused = try await GatewayProcess.run(
            ["run", "--state-dir", fixture.stateDirectory],
            environment: fixture.environment.merging(["EDGE_GATEWAY_WEB_LISTEN": "0.0.0.0:8443", "EDGE_GATEWAY_WEB_TLS_CERT": certificate]) { $1 })
        #expect(refused.status == 78 && refused.standardError.contains("[web] tls_cert and tls_key go together"), "\(refused.standardError)")
    }
}
