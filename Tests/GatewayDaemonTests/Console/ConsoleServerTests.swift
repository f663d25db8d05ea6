#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@testable import GatewayConfiguration
@testable import GatewayDaemon
import GatewayPipeline
import GatewayStatus
import GatewayTestSupport
import Glibc
import Logging
import PipelineTestSupport
import Synchronization
import Testing

/// The console served over real HTTP on loopback: its routes and headers, the `Host` check, and
/// event streams that last only as long as their clients.
@Suite("Console: the server")
struct ConsoleServerTests {
    /// Counts the snapshots made, each `size` bytes of JSON.
    final class Snapshots: Sendable {
        private let made = Mutex(0)
        let size: Int

        init(size: Int = 16) { self.size = size }

        var count: Int { made.withLock { $0 } }

        func make() -> [UInt8] {
            made.withLock { $0 += 1 }
            return Array("\"".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, size - 2)) + Array("\"".utf8)
        }
    }

    /// A console server on a port the kernel picks; its routes know the port once it is bound.
    static func start(
        _ snapshots: Snapshots, interval: Duration = .milliseconds(20), live: (figures: @Sendable () -> [UInt8], pulse: LivePulse)? = nil,
        history: @escaping @Sendable () -> [(address: String, readings: [(second: Int64, bpm: Int)])] = { [] },
        logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> (port: Int, running: Task<Void, any Error>) {
        let routes = Mutex<ConsoleRoutes?>(nil)
        let server = HTTPServer(address: ListenAddress(host: "127.0.0.1", port: 0), role: .console, logger: logger) { request in
            await routes.withLock { $0 }!.handle(request)
        }
        let running = Task { try await server.run() }
        let port = try #require(await server.port)
        routes.withLock {
            $0 = ConsoleRoutes(snapshot: { snapshots.make() }, live: live, history: history, port: port, interval: interval)
        }
        return (port, running)
    }

    @Test("the page, its script and style, and /api/status with the security headers; other methods, paths and hosts refused")
    func routes() async throws {
        let snapshots = Snapshots()
        let (port, running) = try await Self.start(snapshots)
        defer { running.cancel() }
        let page = try await MetricsServerTests.exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", port: port)
        #expect(page.hasPrefix("HTTP/1.1 200 ") && page.contains("Content-Type: text/html; charset=utf-8\r\n"))
        #expect(page.contains("Content-Security-Policy: default-src 'self';") && page.contains("X-Content-Type-Options: nosniff\r\n"))
        #expect(page.contains("<script src=\"/console.js\" defer></script>"))
        for (path, type) in [("/console.js", "text/javascript"), ("/console.css", "text/css"), ("/api/status", "application/json")] {
            let reply = try await MetricsServerTests.exchange("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port)
            #expect(reply.hasPrefix("HTTP/1.1 200 ") && reply.contains("Content-Type: \(type)"), "\(path): \(reply.prefix(200))")
        }
        let status = try await MetricsServerTests.exchange("GET /api/status HTTP/1.1\r\nHost: [::1]:\(port)\r\n\r\n", port: port)
        #expect(status.hasSuffix("\r\n\r\n\"xxxxxxxxxxxxxx\""))
        let rebound = try await MetricsServerTests.exchange("GET /api/status HTTP/1.1\r\nHost: attacker.example:\(port)\r\n\r\n", port: port)
        #expect(rebound.hasPrefix("HTTP/1.1 421 ") && !rebound.contains("xxxx"), "a page elsewhere must not read the console by DNS rebinding")
        #expect(try await MetricsServerTests.exchange("GET / HTTP/1.1\r\n\r\n", port: port).hasPrefix("HTTP/1.1 421 "), "no Host at all")
        #expect(try await MetricsServerTests.exchange("POST / HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port).hasPrefix("HTTP/1.1 403 "), "no CSRF token")
        #expect(try await MetricsServerTests.exchange("PUT / HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port).hasPrefix("HTTP/1.1 403 "))
        #expect(try await MetricsServerTests.exchange("GET /x HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port).hasPrefix("HTTP/1.1 404 "))
        let before = snapshots.count
        let head = try await MetricsServerTests.exchange("HEAD /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port)
        #expect(head.hasPrefix("HTTP/1.1 200 ") && head.hasSuffix("\r\n\r\n"))
        try await Self.waitForSnapshotsToStop(snapshots)
        #expect(snapshots.count == before, "a stream never sent makes no snapshot")
    }

    @Test("an event stream sends a snapshot at once and one per interval, and its snapshots stop when the client goes")
    func streamEndsWithItsClient() async throws {
        let snapshots = Snapshots()
        let (port, running) = try await Self.start(snapshots)
        defer { running.cancel() }
        let received = try await Self.readEvents(port: port, until: 3, of: "event: status\n")
        #expect(received.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"))
        #expect(received.contains("event: status\ndata: \"xxxxxxxxxxxxxx\"\n\n"))
        try await Self.waitForSnapshotsToStop(snapshots)
    }

    @Test("a stream sends the live figures each time the pulse is heard, between whole snapshots, until its client goes")
    func liveAsThePulseBeats() async throws {
        let snapshots = Snapshots()
        let lives = Mutex(0)
        let pulse = LivePulse(interval: .zero)
        let figures: @Sendable () -> [UInt8] = {
            lives.withLock { $0 += 1 }
            return Array(#"{"sensors":[]}"#.utf8)
        }
        let (port, running) = try await Self.start(snapshots, interval: .seconds(3600), live: (figures, pulse))
        defer { running.cancel() }
        let beating = Task {
            while !Task.isCancelled {
                pulse.beat()
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        let received = try await Self.readEvents(port: port, until: 4)
        beating.cancel()
        let kinds = received.components(separatedBy: "event: ").dropFirst().prefix(4).map { $0.prefix { $0 != "\n" } }
        #expect(kinds == ["status", "live", "live", "live"], "\(received.suffix(400))")
        #expect(received.contains("event: live\ndata: {\"sensors\":[]}\n\n"))
        #expect(snapshots.count == 1, "one snapshot in the hour's interval")
        try await waitUntil {
            let before = lives.withLock { $0 }
            pulse.beat()
            return lives.withLock { $0 } == before
        }
    }

    @Test("the live figures: each strap's rate, last sample, RR, contact, samples and state, escaped, and nothing else of its entry")
    func liveJSON() {
        var sensor = GatewayStatusReport.SensorStatus(
            address: "F0:1D:2E:3C:00:01", state: "subscribed", stateDetail: "<b>\"x\"</b>", samplesReceived: 12, samplesAccepted: 11,
            samplesDelivered: 10, samplesDuplicate: 0, samplesRejected: 0, malformedFrames: 0, reconnects: 2)
        sensor.alias = "bed 4"
        sensor.bpm = 71
        sensor.lastSampleAt = Date(timeIntervalSince1970: 1_800_000_000.6)
        sensor.rrIntervalsMs = [812.5, 790]
        sensor.skinContact = "detected"
        let waiting = GatewayStatusReport.SensorStatus(
            address: "F0:1D:2E:3C:00:02", state: "waiting", stateDetail: "starting", samplesReceived: 0, samplesAccepted: 0,
            samplesDelivered: 0, samplesDuplicate: 0, samplesRejected: 0, malformedFrames: 0, reconnects: 0)
        #expect(
            String(decoding: ConsoleRoutes.liveJSON([sensor, waiting]), as: UTF8.self)
                == #"{"sensors":[{"address":"F0:1D:2E:3C:00:01","bpm":71,"lastSampleAt":"2027-01-15T08:00:00Z","rrIntervalsMs":[812.5,790],"samplesReceived":12,"skinContact":"detected","state":"subscribed","stateDetail":"<b>\"x\"</b>"},{"address":"F0:1D:2E:3C:00:02","rrIntervalsMs":[],"samplesReceived":0,"state":"waiting","stateDetail":"starting"}]}"#
        )
    }

    @Test("a client that stops reading its event stream is ended, and the console goes on serving others")
    func stalledStreamIsEnded() async throws {
        let snapshots = Snapshots(size: 256 << 10)
        let (port, running) = try await Self.start(snapshots, interval: .milliseconds(5))
        defer { running.cancel() }
        let socket = try Self.streamNobodyReads(port: port)
        defer { close(socket) }
        try await waitUntil { snapshots.count > 0 }
        try await Self.waitForSnapshotsToStop(snapshots)
        let page = try await MetricsServerTests.exchange("GET /console.css HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port)
        #expect(page.hasPrefix("HTTP/1.1 200 "))
    }

    @Test("/api/history gives each strap's readings of the last ten minutes as [second, bpm] pairs")
    func history() async throws {
        let (port, running) = try await Self.start(
            Snapshots(),
            history: { [("F0:1D:2E:3C:00:01", [(1_800_000_000, 71), (1_800_000_001, 73)]), ("F0:1D:2E:3C:00:02", [])] })
        defer { running.cancel() }
        let reply = try await MetricsServerTests.exchange("GET /api/history HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port)
        #expect(reply.hasPrefix("HTTP/1.1 200 ") && reply.contains("Content-Type: application/json\r\n"))
        #expect(
            reply.hasSuffix(
                #"{"sensors":[{"address":"F0:1D:2E:3C:00:01","readings":[[1800000000,71],[1800000001,73]]},{"address":"F0:1D:2E:3C:00:02","readings":[]}]}"#
            ), "\(reply.suffix(200))")
    }

    @Test("a page left open costs no deadline sweep, yet a stream whose client stops reading is ended 10 s later, short of the unsent cap")
    func stalledStreamEndsAtItsDeadline() async throws {
        let lines = Mutex<[String]>([])
        let logger = Logger(label: "test") { label in
            SystemdLogHandler(label: label, level: .debug) { line in lines.withLock { $0.append(line) } }
        }
        let snapshots = Snapshots(size: 8 << 10)
        let (port, running) = try await Self.start(snapshots, interval: .milliseconds(250), logger: logger)
        defer { running.cancel() }
        let socket = try Self.streamNobodyReads(port: port)
        defer { close(socket) }
        try await waitUntil { lines.withLock { $0.contains { $0.contains("has read nothing of its reply for 10 s") } } }
        try await Self.waitForSnapshotsToStop(snapshots)
        #expect(!lines.withLock { $0.contains { $0.contains("does not read its event stream") } }, "ended by its deadline, not by the 1 MiB cap")
    }

    /// Reads `/api/events` until `count` events (those starting with `marker`) have come, or the
    /// server ends the stream; returns the reply's text so far.
    static func readEvents(port: Int, until count: Int, of marker: String = "event: ") async throws -> String {
        try await offThePool { () -> String in
            let socket = try loopbackConnection(to: UInt16(port))
            defer { close(socket) }
            let request = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
            _ = Array(request.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var text = ""
            var chunk = [UInt8](repeating: 0, count: 4096)
            while text.components(separatedBy: marker).count <= count {
                let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                guard received > 0 else { break }
                text += String(decoding: chunk[..<received], as: UTF8.self)
            }
            return text
        }
    }

    /// Opens `/api/events` on a connection with a 4 KiB receive buffer that the test never reads.
    static func streamNobodyReads(port: Int) throws -> Int32 {
        let socket = try loopbackConnection(to: UInt16(port))
        var small: Int32 = 4096
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let request = "GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n"
        _ = Array(request.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return socket
    }

    /// Waits until no snapshot has been made for a whole second: the stream's producer ended.
    static func waitForSnapshotsToStop(_ snapshots: Snapshots) async throws {
        var last = (count: -1, at: ContinuousClock.now)
        try await waitUntil(polling: .milliseconds(100)) {
            let now = snapshots.count
            if now != last.count { last = (now, .now) }
            return last.at.duration(to: .now) > .seconds(1)
        }
    }
}
