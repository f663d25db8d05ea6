@testable import GatewayConfiguration
@testable import GatewayDaemon
@testable import GatewayOperations
@testable import GatewayPipeline
import GatewayTestSupport
import Logging
import Synchronization
import Testing

/// The console's buttons on loopback, over real HTTP: each runs only with the page's CSRF token
/// and from the page's own origin, answers JSON, and a failure says what failed.
@Suite("Console: actions")
struct ConsoleActionsTests {
    /// The actions run, in order.
    final class Calls: Sendable {
        private let names = Mutex<[String]>([])
        func add(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "the queue is read-only" }
    }

    /// Holds the doctor until released, as one waiting on the network does.
    final class Hold: Sendable {
        private let released = Mutex(false)
        func release() { released.withLock { $0 = true } }
        func wait() async {
            while !released.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(20)) }
        }
    }

    /// A loopback console whose retry-dead moves 3 (counted in `calls`) or fails, and whose
    /// doctor finds one problem (after `hold` is released, when given).
    static func start(calls: Calls, retryFails: Bool = false, hold: Hold? = nil) async throws -> (
        port: Int, routes: ConsoleRoutes, running: Task<Void, any Error>
    ) {
        let routes = Mutex<ConsoleRoutes?>(nil)
        let server = HTTPServer(address: ListenAddress(host: "127.0.0.1", port: 0), role: .console) { request in
            await routes.withLock { $0 }!.handle(request)
        }
        let running = Task { try await server.run() }
        let port = try #require(await server.port)
        var made = ConsoleRoutes(snapshot: { Array("{}".utf8) }, port: port)
        made.logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        made.actions = ConsoleActions(
            retryDead: {
                calls.add("retry-dead")
                if retryFails { throw Failure() }
                return 3
            },
            releaseHeld: {
                calls.add("release-held")
                return HeldSamples.Release(repaired: 2, unrepairable: 1, undecodable: 0)
            },
            doctor: {
                calls.add("doctor")
                await hold?.wait()
                return [.pass("bluetoothd", "running"), .fail("clock", "not synchronised", fix: "enable systemd-timesyncd")]
            })
        routes.withLock { $0 = made }
        return (port, made, running)
    }

    static func post(_ path: String, port: Int, headers: [String] = []) async throws -> String {
        try await MetricsServerTests.exchange(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(headers.map { $0 + "\r\n" }.joined())Content-Length: 0\r\n\r\n", port: port)
    }

    @Test("an action runs only with the page's CSRF token, from its own origin; it answers JSON")
    func csrfGuarded() async throws {
        let calls = Calls()
        let (port, routes, running) = try await Self.start(calls: calls)
        defer { running.cancel() }
        let session = try await MetricsServerTests.exchange("GET /api/session HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port)
        #expect(session.hasSuffix("{\"csrf\":\"\(routes.csrf)\",\"session\":false}"))
        #expect(try await Self.post("/api/actions/retry-dead", port: port).hasPrefix("HTTP/1.1 403 "))
        #expect(
            try await Self.post("/api/actions/retry-dead", port: port, headers: ["X-CSRF-Token: \(String(repeating: "0", count: 64))"]).hasPrefix(
                "HTTP/1.1 403 "))
        let crossSite = try await Self.post("/api/actions/retry-dead", port: port, headers: ["X-CSRF-Token: \(routes.csrf)", "Sec-Fetch-Site: cross-site"])
        #expect(crossSite.hasPrefix("HTTP/1.1 403 "))
        #expect(calls.all.isEmpty, "nothing ran without the token")
        let token = "X-CSRF-Token: \(routes.csrf)"
        let retried = try await Self.post("/api/actions/retry-dead", port: port, headers: [token, "Sec-Fetch-Site: same-origin"])
        #expect(retried.hasPrefix("HTTP/1.1 200 ") && retried.hasSuffix("\r\n\r\n{\"moved\":3}"))
        let released = try await Self.post("/api/actions/release-held", port: port, headers: [token])
        #expect(released.hasSuffix("{\"released\":3,\"repaired\":2,\"unrepairable\":1,\"undecodable\":0}"))
        let doctor = try await Self.post("/api/actions/doctor", port: port, headers: [token])
        #expect(
            doctor.contains("\"check\":\"clock\"") && doctor.contains("\"fix\":\"enable systemd-timesyncd\"") && doctor.hasSuffix("\"passed\":1,\"failed\":1}"))
        #expect(try await Self.post("/api/actions/format-disk", port: port, headers: [token]).hasPrefix("HTTP/1.1 404 "))
        let put = try await MetricsServerTests.exchange(
            "PUT /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(token)\r\nContent-Length: 0\r\n\r\n", port: port)
        #expect(put.hasPrefix("HTTP/1.1 405 "), "a method the console does not take, even with the token")
        #expect(calls.all == ["retry-dead", "release-held", "doctor"])
    }

    @Test("a second press while an action runs is told it is running (409); the first answers even after the 10 s a reply has to leave")
    func oneAtATime() async throws {
        let calls = Calls()
        let hold = Hold()
        let (port, routes, running) = try await Self.start(calls: calls, hold: hold)
        defer { running.cancel() }
        let token = "X-CSRF-Token: \(routes.csrf)"
        let first = Task { try await Self.post("/api/actions/doctor", port: port, headers: [token]) }
        try await waitUntil { calls.all == ["doctor"] }
        let second = try await Self.post("/api/actions/doctor", port: port, headers: [token])
        #expect(second.hasPrefix("HTTP/1.1 409 ") && second.hasSuffix("{\"error\":\"doctor is already running; wait for its result\"}"))
        // A doctor waiting on the network: the reply's 10 s deadline runs from its first byte.
        let started = ContinuousClock.now
        try await waitUntil(timeout: .seconds(60)) { started.duration(to: .now) > .seconds(11) }
        hold.release()
        #expect(try await first.value.hasPrefix("HTTP/1.1 200 "))
        #expect(calls.all == ["doctor"], "the second press ran nothing")
    }

    @Test("an action that fails answers 500 with what failed")
    func failureSaid() async throws {
        let calls = Calls()
        let (port, routes, running) = try await Self.start(calls: calls, retryFails: true)
        defer { running.cancel() }
        let reply = try await Self.post("/api/actions/retry-dead", port: port, headers: ["X-CSRF-Token: \(routes.csrf)"])
        #expect(reply.hasPrefix("HTTP/1.1 500 ") && reply.hasSuffix("{\"error\":\"the queue is read-only\"}"))
    }
}
