@testable import ConsoleSecurity
@testable import GatewayConfiguration
@testable import GatewayDaemon
import GatewayTestSupport
import Glibc
import Logging
import Testing

/// The console beyond loopback, over real TLS on loopback with curl as the client (verifying the
/// certificate against the one the gateway made): no page without a login, a wrong password
/// refused and slowed, the session cookie's flags, CSRF refusals, logout, the headers.
@Suite("Console: TLS, password and sessions")
struct ConsoleGateTests {
    static let password = "correct horse battery"

    struct Server {
        let port: Int
        let running: Task<Void, any Error>
        let directory: TemporaryDirectory
        var certificate: String { directory.file(TLSIdentity.certificateFile) }

        func stop() {
            running.cancel()
            directory.remove()
        }
    }

    static func start(firstWait: Duration = .seconds(1), snapshots: ConsoleServerTests.Snapshots? = nil) async throws -> Server {
        let directory = try TemporaryDirectory()
        try ConsolePassword.hashing(password, iterations: 1000).save(stateDirectory: directory.path)
        let identity = try TLSIdentity.load(certificate: nil, key: nil, stateDirectory: directory.path, names: ["localhost"])
        var routes = ConsoleRoutes(
            snapshot: {
                _ = snapshots?.make()
                return Array("{\"report\":{}}".utf8)
            }, port: 0)
        routes.interval = .milliseconds(200)
        let gate = ConsoleGate(
            routes: routes, sessions: ConsoleSessions(stateDirectory: directory.path, firstWait: firstWait),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let server = HTTPServer(
            address: ListenAddress(host: "127.0.0.1", port: 0), role: .console, tls: try TLSContext(identity: identity), handler: gate.handle)
        let running = Task { try await server.run() }
        return Server(port: try #require(await server.port), running: running, directory: directory)
    }

    struct Reply {
        let status: Int
        let head: String
        let body: String

        func header(_ name: String) -> String? {
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { String($0.dropFirst(name.count + 1).drop { $0 == " " }) }
        }
    }

    /// One HTTPS request with curl, which checks the certificate against the gateway's file.
    static func request(_ server: Server, _ path: String, _ options: [String] = []) async throws -> Reply {
        let result = try await GatewayProcess.run(
            ["-s", "-S", "-i", "--max-time", "60", "--cacert", server.certificate, "--resolve", "localhost:\(server.port):127.0.0.1"] + options
                + ["https://localhost:\(server.port)\(path)"],
            executable: "/usr/bin/curl")
        #expect(result.status == 0, "curl: \(result.standardError)")
        let text = result.standardOutput
        let split = text.range(of: "\r\n\r\n")
        let head = split.map { String(text[..<$0.lowerBound]) } ?? text
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Reply(status: status, head: head, body: split.map { String(text[$0.upperBound...]) } ?? "")
    }

    static func logIn(_ server: Server, _ password: String = password, origin: String? = nil) async throws -> Reply {
        try await request(
            server, "/login", ["--data-urlencode", "password=\(password)"] + (origin.map { ["-H", "Origin: \($0)"] } ?? []))
    }

    static func cookie(of reply: Reply) -> String? {
        reply.header("Set-Cookie")?.split(separator: ";").first.map(String.init)
    }

    @Test("nothing but the login page without a session; the right password opens one with HttpOnly, Secure, SameSite=Strict")
    func loginOpensASession() async throws {
        let server = try await Self.start()
        defer { server.stop() }
        let page = try await Self.request(server, "/")
        #expect(page.status == 303 && page.header("Location") == "/login")
        #expect(try await Self.request(server, "/api/status").status == 401)
        #expect(try await Self.request(server, "/api/events").status == 401)
        let login = try await Self.request(server, "/login")
        #expect(login.status == 200 && login.body.contains("<form class=\"login\" method=\"post\" action=\"/login\">"))
        #expect(login.header("Content-Security-Policy")?.hasPrefix("default-src 'self'") == true)
        #expect(login.header("Strict-Transport-Security") == "max-age=31536000")

        let opened = try await Self.logIn(server)
        #expect(opened.status == 303 && opened.header("Location") == "/")
        let setCookie = try #require(opened.header("Set-Cookie"))
        for flag in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/", "Max-Age=43200"] {
            #expect(setCookie.contains("; \(flag)"), "\(flag) in \(setCookie)")
        }
        let cookie = try #require(Self.cookie(of: opened))
        #expect(cookie.hasPrefix("egw_session=") && cookie.count == "egw_session=".count + 64)
        let status = try await Self.request(server, "/api/status", ["-H", "Cookie: \(cookie)"])
        #expect(status.status == 200 && status.body == "{\"report\":{}}")
        #expect(try await Self.request(server, "/api/status", ["-H", "Cookie: egw_session=\(String(repeating: "0", count: 64))"]).status == 401)
    }

    @Test("a wrong password is refused, then that address is slowed with Retry-After, even for the right password")
    func wrongPasswordSlowed() async throws {
        let server = try await Self.start(firstWait: .seconds(30))
        defer { server.stop() }
        let refused = try await Self.logIn(server, "not the password")
        #expect(refused.status == 401 && refused.body.contains("Wrong password.") && refused.header("Set-Cookie") == nil)
        let slowed = try await Self.logIn(server)
        let wait = try #require(slowed.header("Retry-After").flatMap { Int($0) })
        #expect(slowed.status == 429 && (1 ... 30).contains(wait) && slowed.header("Set-Cookie") == nil, "even the right password waits")
        #expect(slowed.body.contains("Too many tries: wait \(wait) s"))
    }

    @Test("logout and every other state change need the session's CSRF token; a login from another origin is refused")
    func csrf() async throws {
        let server = try await Self.start()
        defer { server.stop() }
        #expect(try await Self.logIn(server, origin: "https://attacker.example").status == 403)
        #expect(try await Self.request(server, "/login", ["--data-urlencode", "password=\(Self.password)", "-H", "Sec-Fetch-Site: cross-site"]).status == 403)
        let cookie = try #require(Self.cookie(of: try await Self.logIn(server, origin: "https://localhost:\(server.port)")))
        let session = try await Self.request(server, "/api/session", ["-H", "Cookie: \(cookie)"])
        let token = try #require(session.body.split(separator: "\"").dropFirst(3).first.map(String.init))
        #expect(session.status == 200 && token.count == 64)
        #expect(try await Self.request(server, "/logout", ["-X", "POST", "-H", "Cookie: \(cookie)"]).status == 403)
        #expect(
            try await Self.request(server, "/logout", ["-X", "POST", "-H", "Cookie: \(cookie)", "-H", "X-CSRF-Token: \(String(repeating: "0", count: 64))"])
                .status == 403)
        let logout = try await Self.request(server, "/logout", ["-X", "POST", "-H", "Cookie: \(cookie)", "-H", "X-CSRF-Token: \(token)"])
        #expect(logout.status == 200 && logout.header("Set-Cookie")?.contains("Max-Age=0") == true)
        #expect(try await Self.request(server, "/api/status", ["-H", "Cookie: \(cookie)"]).status == 401, "the session ended")
    }

    @Test("a new password ends the sessions opened with the old one")
    func newPasswordEndsSessions() async throws {
        let server = try await Self.start()
        defer { server.stop() }
        let cookie = try #require(Self.cookie(of: try await Self.logIn(server)))
        #expect(try await Self.request(server, "/api/status", ["-H", "Cookie: \(cookie)"]).status == 200)
        try ConsolePassword.hashing("a brand new password", iterations: 1000).save(stateDirectory: server.directory.path)
        #expect(try await Self.request(server, "/api/status", ["-H", "Cookie: \(cookie)"]).status == 401)
    }

    @Test("an open page's event stream ends when its session does (here: a new password)")
    func streamEndsWithItsSession() async throws {
        let snapshots = ConsoleServerTests.Snapshots()
        let server = try await Self.start(snapshots: snapshots)
        defer { server.stop() }
        let cookie = try #require(Self.cookie(of: try await Self.logIn(server)))
        let stream = Task { try await Self.request(server, "/api/events", ["-N", "-H", "Cookie: \(cookie)"]) }
        try await waitUntil { snapshots.count >= 3 }
        try ConsolePassword.hashing("a brand new password", iterations: 1000).save(stateDirectory: server.directory.path)
        let ended = try await stream.value
        #expect(ended.status == 200 && ended.body.contains("event: status"), "the stream ran, then ended without curl's 60 s limit")
    }

    @Test("plain HTTP on the TLS port is dropped without a reply, and the server goes on")
    func plainHTTPDropped() async throws {
        let server = try await Self.start()
        defer { server.stop() }
        let port = server.port
        let received = try await offThePool { () -> Int in
            let socket = try loopbackConnection(to: UInt16(port))
            defer { close(socket) }
            let request = Array("GET /api/status HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var total = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                total += count
            }
            return total
        }
        #expect(received < 64, "at most a TLS alert, never a page")
        #expect(try await Self.request(server, "/login").status == 200)
    }
}
