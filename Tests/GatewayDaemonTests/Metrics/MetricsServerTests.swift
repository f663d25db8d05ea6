import Foundation
@testable import GatewayConfiguration
@testable import GatewayDaemon
import GatewayTestSupport
import Glibc
import Logging
import PipelineTestSupport
import ServiceLifecycle
import Testing
import Uplink

/// `/metrics` served over real HTTP on loopback.
@Suite("Operations: metrics endpoint")
struct MetricsServerTests {
    /// The server `edge-gateway run` makes for `[metrics] listen`, with `render`'s text.
    static func metricsServer(
        address: ListenAddress, logger: Logger = Logger(label: "edge-gateway.metrics"), render: @escaping @Sendable () async -> String
    ) -> HTTPServer {
        HTTPServer(address: address, role: .metrics, logger: logger, handler: MetricsRoutes.handler(render: render))
    }

    @Test("serves the closure's text at GET /metrics on a port chosen by the kernel, 404 elsewhere, and stops with its service group")
    func servesOverLoopback() async throws {
        let counter = Counter()
        let server = Self.metricsServer(
            address: ListenAddress(host: "127.0.0.1", port: 0), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        ) {
            "# HELP edge_gateway_test A test.\n# TYPE edge_gateway_test counter\nedge_gateway_test \(await counter.next())\n"
        }
        let group = ServiceGroup(services: [server], gracefulShutdownSignals: [], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let running = Task { try await group.run() }
        let port = try #require(await server.port)
        #expect(port > 0)
        let first = try await LoopbackHTTP.get("http://127.0.0.1:\(port)/metrics")
        #expect(first.status == 200)
        #expect(first.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(String(decoding: first.body, as: UTF8.self).hasSuffix("edge_gateway_test 1\n"))
        let second = try await LoopbackHTTP.get("http://127.0.0.1:\(port)/metrics")
        #expect(String(decoding: second.body, as: UTF8.self).hasSuffix("edge_gateway_test 2\n"))
        #expect(try await LoopbackHTTP.get("http://127.0.0.1:\(port)/other").status == 404)
        await group.triggerGracefulShutdown()
        try await running.value
        await #expect(throws: UplinkError.self) { try await LoopbackHTTP.get("http://127.0.0.1:\(port)/metrics") }
    }

    @Test("a port already in use ends the server with an error and no bound port")
    func portInUse() async throws {
        let first = Self.metricsServer(address: ListenAddress(host: "127.0.0.1", port: 0)) { "" }
        let running = Task { try await first.run() }
        let port = try #require(await first.port)
        let second = Self.metricsServer(address: ListenAddress(host: "127.0.0.1", port: port)) { "" }
        await #expect(throws: (any Error).self) { try await second.run() }
        #expect(await second.port == nil)
        running.cancel()
        _ = await running.result
    }

    @Test("a request that is not GET /metrics over HTTP/1.x gets 405, 400 or 404, and the server keeps serving")
    func oddRequests() async throws {
        let server = Self.metricsServer(address: ListenAddress(host: "127.0.0.1", port: 0)) { "edge_gateway_up 1\n" }
        let running = Task { try await server.run() }
        let port = try #require(await server.port)
        #expect(try await Self.exchange("POST /metrics HTTP/1.1\r\nHost: x\r\n\r\n", port: port).hasPrefix("HTTP/1.1 405 "))
        #expect(try await Self.exchange("GET /metrics SPDY/3\r\n\r\n", port: port).hasPrefix("HTTP/1.1 400 "))
        #expect(try await Self.exchange("GET\r\n\r\n", port: port).hasPrefix("HTTP/1.1 400 "))
        #expect(try await Self.exchange(String(repeating: "X", count: 8192), port: port).hasPrefix("HTTP/1.1 400 "))
        #expect(try await Self.exchange("GET /metrics/../etc HTTP/1.1\r\n\r\n", port: port).hasPrefix("HTTP/1.1 404 "))
        let head = try await Self.exchange("HEAD /metrics?x=1 HTTP/1.0\r\n\r\n", port: port)
        #expect(head.hasPrefix("HTTP/1.1 200 ") && head.hasSuffix("\r\n\r\n"))
        let scrape = try await LoopbackHTTP.get("http://127.0.0.1:\(port)/metrics")
        #expect(String(decoding: scrape.body, as: UTF8.self) == "edge_gateway_up 1\n")
        running.cancel()
        _ = await running.result
    }

    /// Sends `request` raw on a new connection and reads the reply until the server closes,
    /// on a thread of its own: the server renders its reply on the cooperative pool.
    static func exchange(_ request: String, port: Int) async throws -> String {
        try await offThePool { try blockingExchange(request, port: port) }
    }

    private static func blockingExchange(_ request: String, port: Int) throws -> String {
        let socket = try loopbackConnection(to: UInt16(port))
        defer { close(socket) }
        _ = Array(request.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            reply += chunk[..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    actor Counter {
        private var value = 0
        func next() -> Int {
            value += 1
            return value
        }
    }
}
