import Foundation
import GatewayDaemonTestSupport
import Logging
import ServiceLifecycle
import Testing
import Uplink
@testable import GatewayDaemon

extension Operations {
    /// `/metrics` served over real HTTP on loopback.
    @Suite("Operations: metrics endpoint")
    struct MetricsServerTests {
        @Test("serves the closure's text at GET /metrics on a port chosen by the kernel, 404 elsewhere, and stops with its service group")
        func servesOverLoopback() async throws {
            let counter = Counter()
            let server = MetricsServer(address: ListenAddress(host: "127.0.0.1", port: 0), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) {
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
            let first = MetricsServer(address: ListenAddress(host: "127.0.0.1", port: 0)) { "" }
            let running = Task { try await first.run() }
            let port = try #require(await first.port)
            let second = MetricsServer(address: ListenAddress(host: "127.0.0.1", port: port)) { "" }
            await #expect(throws: (any Error).self) { try await second.run() }
            #expect(await second.port == nil)
            running.cancel()
            _ = await running.result
        }

        actor Counter {
            private var value = 0
            func next() -> Int {
                value += 1
                return value
            }
        }
    }
}
