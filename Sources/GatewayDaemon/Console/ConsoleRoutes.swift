#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayConfiguration
import GatewayPipeline
import GatewayStatus
import Logging
import OfflineQueue
import OutputFormats
import ProcessThreads
import Synchronization

/// What the console server answers on `[web] listen`: the page and its script and style (all
/// from the binary: no CDN), `GET /api/status` (one snapshot as JSON), `GET /api/history` (each
/// strap's heart rate over the last ten minutes) and `GET /api/events` (server-sent events for
/// as long as the page is open: a snapshot every `interval`, and between them the straps' live
/// figures as samples arrive; with no page open the console costs only the tallies' ten-minute
/// rings).
///
/// On loopback the console needs no password; a request whose `Host` is not this machine's is
/// refused, so a web page elsewhere cannot reach it through DNS rebinding. Beyond loopback it is
/// served over TLS behind `ConsoleGate` (a password, sessions, CSRF tokens).
struct ConsoleRoutes: Sendable {
    /// One snapshot: the daemon's report, the queue's counts and the state disk, as JSON.
    let snapshot: @Sendable () async -> [UInt8]
    /// The straps' live figures as JSON (`liveJSON`: each strap's heart rate, last sample, RR,
    /// contact and state), sent between snapshots each time `pulse` is heard (a second at most,
    /// on the thread of the sample that beat it); nil: only snapshots.
    var live: (figures: @Sendable () -> [UInt8], pulse: LivePulse)?
    /// Each strap's heart rate over the last ten minutes (`CounterBoard`'s tallies), for a page
    /// that opens now to chart the minutes before it.
    var history: @Sendable () -> [(address: String, readings: [(second: Int64, bpm: Int)])] = { [] }
    /// The port the server listens on (the `Host` check).
    let port: Int
    /// Between two whole snapshots of a stream. The queue, adapters and uplink change slowly
    /// beside a heart rate (an upload round every 10 s), and a timer a second cost an open page
    /// more than the figures it sent: the wake, not the bytes (docs/PERFORMANCE.md).
    var interval: Duration = .seconds(10)
    /// The buttons' work; nil: no actions (they answer 404).
    var actions: ConsoleActions?
    /// On loopback, the token every POST must carry (`X-CSRF-Token`): a page elsewhere can make
    /// the browser post to 127.0.0.1 but cannot read `/api/session` to learn it.
    var csrf = ConsoleSessions.randomToken()
    var logger = Logger(label: "edge-gateway.console")

    /// Every reply carries these: the page's scripts and styles come only from the box.
    static let securityHeaders: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
    ]

    func handle(_ request: HTTPRequest) async -> HTTPReply {
        guard Self.hostIsLocal(request.header("Host"), port: port) else {
            return .text(421, "Misdirected Request", "the console answers only requests to this machine (127.0.0.1, localhost, [::1])\n")
        }
        if request.method != "GET" && request.method != "HEAD" {
            guard request.header("X-CSRF-Token") == csrf, ConsoleGate.sameOrigin(request, scheme: "http") else {
                logger.warning("the console refused a request without its CSRF token", metadata: ["path": "\(request.path)", "client": "\(request.peer)"])
                return .text(403, "Forbidden", "the request did not carry the console's CSRF token; reload the page\n")
            }
        }
        var reply = await route(request)
        reply.headers += Self.securityHeaders
        return reply
    }

    /// The reply to `request`, once it may be answered (the `Host` check, or `ConsoleGate`).
    func route(_ request: HTTPRequest) async -> HTTPReply {
        if request.method == "POST", request.path.hasPrefix(Self.actionPrefix) {
            return await act(String(request.path.dropFirst(Self.actionPrefix.count)), for: request)
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text(405, "Method Not Allowed", "the console answers GET\n", headers: [("Allow", "GET, HEAD")])
        }
        switch request.path {
        case "/": return Self.asset(ConsoleAssets.page, type: "text/html; charset=utf-8")
        case "/console.js": return Self.asset(ConsoleAssets.script, type: "text/javascript; charset=utf-8")
        case "/console.css": return Self.asset(ConsoleAssets.style, type: "text/css; charset=utf-8")
        case "/api/status":
            return HTTPReply(
                status: 200, reason: "OK", headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: await snapshot())
        case "/api/history":
            return HTTPReply(
                status: 200, reason: "OK", headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                body: Self.historyJSON(history()))
        case "/api/events":
            return .eventStream(events())
        case "/api/session":
            // On loopback there is no session (ConsoleGate answers beyond it): nothing to log out of.
            return HTTPReply(
                status: 200, reason: "OK", headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                body: Array("{\"csrf\":\"\(csrf)\",\"session\":false}".utf8))
        default:
            return .text(404, "Not Found", "no such page on the console\n")
        }
    }

    /// A snapshot at once and every `interval`, and after the first the live figures whenever
    /// the pulse is heard (the page lays them over a snapshot), for as long as the client stays:
    /// nothing runs for a reply never streamed (a HEAD, a client gone first).
    private func events() -> EventFeed {
        EventFeed { [snapshot, live, interval] sink in
            let subscription = LiveSubscription()
            let snapshots = Task {
                while sink.send(Self.event("status", await snapshot())) {
                    if let live {
                        subscription.start { live.pulse.listen { _ = sink.send(Self.event("live", live.figures())) } }
                    }
                    do { try await ProcessExecutor.sleep(for: interval) } catch { return }
                }
            }
            return {
                snapshots.cancel()
                subscription.end()
            }
        }
    }

    private static func event(_ name: String, _ json: [UInt8]) -> [UInt8] {
        Array("event: \(name)\ndata: ".utf8) + json + Array("\n\n".utf8)
    }

    static let actionPrefix = "/api/actions/"

    /// Runs a button's action (its CSRF token already checked), logged with the client.
    private func act(_ name: String, for request: HTTPRequest) async -> HTTPReply {
        guard let actions, let (status, json, summary) = await actions.run(name) else {
            return .text(404, "Not Found", "no such action (\(ConsoleActions.names.joined(separator: ", ")))\n")
        }
        logger.notice("console action", metadata: ["action": "\(name)", "client": "\(request.peer)", "result": "\(summary)"])
        return HTTPReply(
            status: status, reason: [200: "OK", 409: "Conflict"][status] ?? "Internal Server Error",
            headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: json)
    }

    private static func asset(_ text: String, type: String) -> HTTPReply {
        HTTPReply(status: 200, reason: "OK", headers: [("Content-Type", type), ("Cache-Control", "no-cache")], body: Array(text.utf8))
    }

    /// Whether `host` names this machine: 127.0.0.1, localhost or [::1], with the server's port
    /// or none.
    static func hostIsLocal(_ host: String?, port: Int) -> Bool {
        guard let host else { return false }
        for name in ["127.0.0.1", "localhost", "[::1]"] where host == name || host == "\(name):\(port)" { return true }
        return false
    }

    /// The snapshot's JSON: `{"disk":…,"movedAside":[…],"queue":…,"report":…,"uploads":[…]}`,
    /// the report as `status.json` holds it, the upload rounds newest first.
    static func snapshotJSON(
        report: GatewayStatusReport, queue: QueueStats?, disk: DiskSpace?, movedAside: [MovedAsideQueue] = [], uploads: [UploadRound] = []
    ) -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        if let disk {
            json.key("disk")
            json.beginObject()
            json.key("freeBytes")
            json.integer(disk.freeBytes)
            json.key("readOnly")
            json.boolean(disk.readOnly)
            json.key("totalBytes")
            json.integer(disk.totalBytes)
            json.endObject()
        }
        json.key("movedAside")
        json.beginArray()
        for file in movedAside {
            json.beginObject()
            json.key("bytes")
            json.integer(file.bytes)
            json.key("movedAt")
            json.string(file.movedAt)
            json.key("path")
            json.string(file.path)
            json.endObject()
        }
        json.endArray()
        if let queue {
            json.key("queue")
            json.beginObject()
            json.key("databaseBytes")
            json.integer(queue.databaseBytes)
            json.key("dead")
            json.integer(queue.dead)
            json.key("evicted")
            json.integer(queue.evicted)
            json.key("leased")
            json.integer(queue.leased)
            json.key("oldestPendingAgeSeconds")
            json.integer((queue.oldestPendingAgeNanoseconds ?? 0) / 1_000_000_000)
            json.key("pending")
            json.integer(queue.pending)
            json.endObject()
        }
        json.key("report")
        json.raw(String(decoding: report.jsonBytes, as: UTF8.self))
        json.key("uploads")
        json.beginArray()
        for round in uploads.reversed() { write(round, to: &json) }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    private static func write(_ round: UploadRound, to json: inout JSONWriter) {
        json.beginObject()
        json.key("at")
        json.date(round.at)
        json.key("delivered")
        json.integer(round.delivered)
        json.key("duplicate")
        json.integer(round.duplicate)
        if let error = round.error {
            json.key("error")
            json.string(error)
        }
        json.key("rejected")
        json.integer(round.rejected)
        json.key("samples")
        json.integer(round.samples)
        json.key("seconds")
        json.seconds(round.seconds)
        json.key("skipped")
        json.integer(round.skipped)
        json.key("unsettled")
        json.integer(round.unsettled)
        json.endObject()
    }
}

extension ConsoleRoutes {
    /// `{"sensors":[…]}`: of each strap, only what moves between snapshots (its heart rate, last
    /// sample, RR intervals, skin contact, samples received and state), keyed as in the report,
    /// so the page lays them over the last snapshot's entry for the same address.
    static func liveJSON(_ sensors: [GatewayStatusReport.SensorStatus]) -> [UInt8] {
        var json = JSONWriter(capacity: 32 + 224 * sensors.count)
        json.beginObject()
        json.key("sensors")
        json.beginArray()
        for sensor in sensors {
            json.beginObject()
            json.key("address")
            json.string(sensor.address)
            if let bpm = sensor.bpm {
                json.key("bpm")
                json.integer(bpm)
            }
            if let lastSampleAt = sensor.lastSampleAt {
                json.key("lastSampleAt")
                json.date(lastSampleAt)
            }
            json.key("rrIntervalsMs")
            json.beginArray()
            for interval in sensor.rrIntervalsMs ?? [] { try? json.number(interval) }
            json.endArray()
            json.key("samplesReceived")
            json.integer(sensor.samplesReceived)
            if let skinContact = sensor.skinContact {
                json.key("skinContact")
                json.string(skinContact)
            }
            json.key("state")
            json.string(sensor.state)
            json.key("stateDetail")
            json.string(sensor.stateDetail)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// `{"sensors":[{"address":…,"readings":[[second, bpm], …]}, …]}`, seconds since 1970.
    static func historyJSON(_ straps: [(address: String, readings: [(second: Int64, bpm: Int)])]) -> [UInt8] {
        var json = JSONWriter(capacity: 64 + straps.reduce(0) { $0 + 64 + 16 * $1.readings.count })
        json.beginObject()
        json.key("sensors")
        json.beginArray()
        for strap in straps {
            json.beginObject()
            json.key("address")
            json.string(strap.address)
            json.key("readings")
            json.beginArray()
            for reading in strap.readings {
                json.beginArray()
                json.integer(reading.second)
                json.integer(reading.bpm)
                json.endArray()
            }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }
}

/// One stream's subscription to the live figures: started after its first snapshot, ended once
/// when the client goes, whichever thread comes first.
private final class LiveSubscription: Sendable {
    private let state = Mutex<(started: Bool, ended: Bool, stop: (@Sendable () -> Void)?)>((false, false, nil))

    /// Subscribes with `listen` (which returns what stops it) unless already started or ended.
    func start(_ listen: () -> @Sendable () -> Void) {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started && !state.ended
        }
        guard first else { return }
        let stop = listen()
        let ended = state.withLock { state in
            if !state.ended { state.stop = stop }
            return state.ended
        }
        if ended { stop() }
    }

    /// Stops the subscription, now or as soon as it starts.
    func end() {
        state.withLock { state in
            state.ended = true
            defer { state.stop = nil }
            return state.stop
        }?()
    }
}
