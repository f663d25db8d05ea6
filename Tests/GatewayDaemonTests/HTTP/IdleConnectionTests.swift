@testable import GatewayConfiguration
@testable import GatewayDaemon
import GatewayTestSupport
import Glibc
import PipelineTestSupport
import Synchronization
import Testing

/// A client that opens 1,000 connections and sends nothing, against each kind of server. One at a
/// time (`.serialized`): two floods at once would double the process's descriptors and starve
/// the other servers the suite tests meanwhile.
@Suite("HTTP: 1,000 idle connections", .serialized)
struct IdleConnectionTests {
    @Test("1,000 connections that send nothing hold no scrape up (the longest-waiting make room), and a head still incomplete after 5 s is ended")
    func idleConnectionsDoNotBlockScrapes() async throws {
        let server = MetricsServerTests.metricsServer(address: ListenAddress(host: "127.0.0.1", port: 0)) { "edge_gateway_up 1\n" }
        let running = Task { try await server.run() }
        let port = try #require(await server.port)
        let idle = try Self.idleConnections(to: port)
        let clients = idle.count
        var slowest = Duration.zero
        for _ in 0 ..< 5 {
            let started = ContinuousClock.now
            let scrape = try await LoopbackHTTP.get("http://127.0.0.1:\(port)/metrics", timeout: .seconds(5))
            slowest = max(slowest, started.duration(to: .now))
            #expect(scrape.status == 200 && String(decoding: scrape.body, as: UTF8.self) == "edge_gateway_up 1\n")
        }
        print("metrics: \(clients) idle connections open; slowest of 5 scrapes \(slowest)")
        idle.forEach { close($0) }
        let trickler = try loopbackConnection(to: UInt16(port))
        defer { close(trickler) }
        _ = send(trickler, "GET /met", 8, Int32(MSG_NOSIGNAL))
        let started = ContinuousClock.now
        let ended = try await offThePool { () -> Bool in
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(trickler, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var byte: UInt8 = 0
            return recv(trickler, &byte, 1, 0) == 0
        }
        #expect(ended, "a connection whose head never completed was kept past its deadline")
        print("metrics: a trickling head was ended after \(started.duration(to: .now))")
        running.cancel()
        _ = await running.result
    }

    @Test("1,000 connections that send nothing stop neither a page's event stream nor /api/status")
    func idleConnectionsDoNotStopTheConsole() async throws {
        let snapshots = ConsoleServerTests.Snapshots()
        let (port, running) = try await ConsoleServerTests.start(snapshots, interval: .milliseconds(50))
        defer { running.cancel() }
        let stream = try loopbackConnection(to: UInt16(port))
        defer { close(stream) }
        let request = "GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n"
        _ = Array(request.utf8).withUnsafeBytes { send(stream, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let events = Mutex(0)
        let reading = Task {
            try await offThePool {
                var chunk = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = chunk.withUnsafeMutableBytes { recv(stream, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { return }
                    let text = String(decoding: chunk[..<count], as: UTF8.self)
                    events.withLock { $0 += text.components(separatedBy: "event: status\n").count - 1 }
                }
            }
        }
        try await waitUntil { events.withLock { $0 } > 0 }
        let idle = try Self.idleConnections(to: port)
        defer { idle.forEach { close($0) } }
        let before = events.withLock { $0 }
        try await waitUntil { events.withLock { $0 } >= before + 10 }
        for _ in 0 ..< 3 {
            let status = try await MetricsServerTests.exchange("GET /api/status HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port)
            #expect(status.hasPrefix("HTTP/1.1 200 "))
        }
        print("console: \(idle.count) idle connections open; the stream went on (\(events.withLock { $0 } - before) events since)")
        shutdown(stream, Int32(SHUT_RDWR))
        _ = try await reading.value
    }

    /// Up to 1,000 connections to `port` that will send nothing (fewer when `RLIMIT_NOFILE`
    /// leaves less than that and 200 to spare; at least 500).
    static func idleConnections(to port: Int) throws -> [Int32] {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let clients = Int(min(1000, max(0, Int(limit.rlim_cur) - 200)))
        try #require(clients >= 500, "RLIMIT_NOFILE \(limit.rlim_cur) is too low for this test")
        return try (0 ..< clients).map { _ in try loopbackConnection(to: UInt16(port)) }
    }
}
