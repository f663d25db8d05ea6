import Dispatch
import GatewayPipeline
import Glibc
import Logging

/// The metrics server's open connections, each served on its own as its bytes arrive, so a
/// client that connects and sends nothing (or trickles) holds no other scrape up.
///
/// Non-blocking sockets with Dispatch read and write sources on the server's one serial queue:
/// every method runs there. A request head must arrive whole within 5 s of the connection, and
/// a reply leave within 10 s; at most 64 connections are open, and a new one beyond that ends
/// the one that has been waiting longest for its head. The deadline sweep runs only while
/// connections are open, so an idle server wakes nobody.
final class MetricsConnections: @unchecked Sendable {
    static let capacity = 64
    static let headDeadline = DispatchTimeInterval.seconds(5)
    static let replyDeadline = DispatchTimeInterval.seconds(10)

    private struct Connection {
        let reader: DispatchSourceRead
        let opened: DispatchTime
        var head: [UInt8] = []
        /// Set once the head is complete: reading stops (the source is suspended).
        var answering = false
        var writer: DispatchSourceWrite?
        var unsent: ArraySlice<UInt8> = []
    }

    private let queue: DispatchQueue
    private let logger: Logger
    private let render: @Sendable () async -> String
    private var open: [Int32: Connection] = [:]
    private var sweep: DispatchSourceTimer?

    init(queue: DispatchQueue, logger: Logger, render: @escaping @Sendable () async -> String) {
        self.queue = queue
        self.logger = logger
        self.render = render
    }

    /// Takes an accepted connection.
    func add(_ descriptor: Int32) {
        if open.count >= Self.capacity {
            let waiting = open.filter { !$0.value.answering }
            guard let oldest = waiting.min(by: { $0.value.opened < $1.value.opened })?.key else {
                close(descriptor)
                return
            }
            logger.debug("metrics connections at their limit: ending the longest-waiting one", metadata: ["limit": "\(Self.capacity)"])
            end(oldest)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        let reader = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        reader.setEventHandler { [unowned self] in readable(descriptor) }
        reader.setCancelHandler { close(descriptor) }
        open[descriptor] = Connection(reader: reader, opened: .now())
        reader.resume()
        if sweep == nil { startSweep() }
    }

    /// Ends every connection (the server stops).
    func endAll() {
        for descriptor in open.keys { end(descriptor) }
    }

    private func readable(_ descriptor: Int32) {
        guard var connection = open[descriptor], !connection.answering else { return }
        var chunk = [UInt8](repeating: 0, count: 2048)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0 else {
            end(descriptor)
            return
        }
        connection.head += chunk[..<count]
        guard let answer = MetricsExchange.answer(toHead: connection.head) else {
            open[descriptor] = connection
            return
        }
        connection.answering = true
        connection.reader.suspend()
        open[descriptor] = connection
        switch answer {
        case .error(let status, let reason, let body, let extraHeaders):
            send(MetricsExchange.reply(status, reason, body, extraHeaders: extraHeaders), to: descriptor)
        case .metrics(let withBody):
            let render = render
            Task {
                let text = await render()
                queue.async { [self] in
                    send(MetricsExchange.reply(200, "OK", text, contentType: PrometheusMetrics.contentType, withBody: withBody), to: descriptor)
                }
            }
        }
    }

    /// Sends what the socket takes now and the rest as it drains; ends the connection after.
    private func send(_ bytes: some Collection<UInt8>, to descriptor: Int32) {
        guard var connection = open[descriptor] else { return }
        var unsent = ArraySlice(bytes)
        while !unsent.isEmpty {
            let count = unsent.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if count > 0 {
                unsent = unsent.dropFirst(count)
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                break
            } else {
                logger.debug("a metrics client went away before its reply was sent", metadata: ["errno": "\(errno)"])
                end(descriptor)
                return
            }
        }
        guard !unsent.isEmpty else {
            end(descriptor)
            return
        }
        connection.unsent = unsent
        if connection.writer == nil {
            let writer = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
            writer.setEventHandler { [unowned self] in
                if let rest = open[descriptor]?.unsent { send(rest, to: descriptor) }
            }
            connection.writer = writer
            writer.resume()
        }
        open[descriptor] = connection
    }

    private func end(_ descriptor: Int32) {
        guard let connection = open.removeValue(forKey: descriptor) else { return }
        connection.writer?.cancel()
        connection.reader.cancel()
        // A suspended source runs its cancel handler (which closes the socket) once resumed.
        if connection.answering { connection.reader.resume() }
        if open.isEmpty {
            sweep?.cancel()
            sweep = nil
        }
    }

    private func startSweep() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1), leeway: .milliseconds(250))
        timer.setEventHandler { [unowned self] in
            let now = DispatchTime.now()
            for (descriptor, connection) in open {
                let deadline = connection.opened + (connection.answering ? Self.replyDeadline : Self.headDeadline)
                if deadline < now { end(descriptor) }
            }
        }
        sweep = timer
        timer.resume()
    }
}
