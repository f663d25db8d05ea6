import ConsoleSecurity
import Dispatch
import Glibc
import Logging

/// One HTTP server's open connections, each served on its own as its bytes arrive, so a client
/// that connects and sends nothing (or trickles) holds no other request up.
///
/// Non-blocking sockets with Dispatch read and write sources on the server's one serial queue:
/// every method runs there. A request must arrive whole within 5 s of the connection, and a
/// whole reply leave within 10 s of its first byte (the handler itself may take up to 5 minutes:
/// the console's doctor waits for the network); an event stream lasts while its client reads it, and ends when
/// the client stops reading for 10 s or 1 MiB waits unsent. At most 64 connections are open, a
/// new one beyond that ending the one that has been waiting longest for its request. The
/// deadline sweep runs only while a connection has a deadline (a request or reply under way, a
/// stream its client stopped reading), so neither an idle server nor a page left open wakes
/// for it.
///
/// With a `TLSContext` every connection speaks TLS: its channel turns the bytes received into
/// the request and each reply into records, and everything above (parsing, deadlines, the
/// unsent cap) sees the same bytes as without it.
final class HTTPConnections: @unchecked Sendable {
    static let capacity = 64
    static let requestDeadline = DispatchTimeInterval.seconds(5)
    static let replyDeadline = DispatchTimeInterval.seconds(10)
    static let handlerDeadline = DispatchTimeInterval.seconds(300)
    static let maximumUnsent = 1 << 20
    /// The kernel's send buffer per connection (it doubles the figure): without it, loopback
    /// takes about 4 MB from a client that reads nothing before a send falls short, so a stalled
    /// stream would go unseen for minutes and each connection could pin megabytes of kernel memory.
    static let kernelSendBuffer: Int32 = 64 << 10

    private struct Connection {
        let reader: DispatchSourceRead
        let opened: DispatchTime
        /// The client's address (the login brake, the log).
        let peer: String
        let tls: TLSChannel?
        var received: [UInt8] = []
        /// Set once the request is whole: reading stops (the source is suspended), except on
        /// an event stream, where it goes on only to see the client go.
        var answering = false
        /// When the reply began to be sent (its deadline runs from there).
        var answeredAt: DispatchTime?
        var readerSuspended = false
        /// What stops the event feed, for a streaming reply.
        var stopFeed: (@Sendable () -> Void)?
        var writer: DispatchSourceWrite?
        var unsent: ArraySlice<UInt8> = []
        /// When the unsent bytes began waiting (the client stopped reading).
        var stalledSince: DispatchTime?
        /// Ends the connection once `unsent` is sent (false while a stream goes on).
        var closeWhenSent = true

        /// Whether the sweep must watch it: all but a stream its client keeps reading.
        var hasDeadline: Bool { stopFeed == nil || stalledSince != nil }
    }

    private let queue: DispatchQueue
    private let logger: Logger
    private let maximumBody: Int
    private let tls: TLSContext?
    private let handler: @Sendable (HTTPRequest) async -> HTTPReply
    private var open: [Int32: Connection] = [:]
    private var sweep: DispatchSourceTimer?

    init(
        queue: DispatchQueue, logger: Logger, maximumBody: Int, tls: TLSContext? = nil,
        handler: @escaping @Sendable (HTTPRequest) async -> HTTPReply
    ) {
        self.queue = queue
        self.logger = logger
        self.maximumBody = maximumBody
        self.tls = tls
        self.handler = handler
    }

    /// Takes an accepted connection.
    func add(_ descriptor: Int32) {
        if open.count >= Self.capacity {
            let waiting = open.filter { !$0.value.answering }
            guard let oldest = waiting.min(by: { $0.value.opened < $1.value.opened })?.key else {
                close(descriptor)
                return
            }
            logger.debug("connections at their limit: ending the longest-waiting one", metadata: ["limit": "\(Self.capacity)"])
            end(oldest)
        }
        let channel: TLSChannel?
        do {
            channel = try tls?.channel()
        } catch {
            logger.warning("cannot take a console connection", metadata: ["error": "\(error)"])
            close(descriptor)
            return
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var kernelBuffer = Self.kernelSendBuffer
        setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &kernelBuffer, socklen_t(MemoryLayout<Int32>.size))
        let reader = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        reader.setEventHandler { [unowned self] in readable(descriptor) }
        reader.setCancelHandler { close(descriptor) }
        open[descriptor] = Connection(reader: reader, opened: .now(), peer: Self.peer(of: descriptor), tls: channel)
        reader.resume()
        if sweep == nil { startSweep() }
    }

    /// Ends every connection (the server stops).
    func endAll() {
        for descriptor in open.keys { end(descriptor) }
    }

    private func readable(_ descriptor: Int32) {
        guard let tls = open[descriptor].map(\.tls) else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0 else {
            end(descriptor)
            return
        }
        var bytes = chunk[..<count]
        if let tls {
            do {
                let (plaintext, reply) = try tls.receive(bytes)
                if !reply.isEmpty { transmit(reply, to: descriptor) }
                bytes = plaintext[...]
            } catch {
                logger.debug("a TLS connection failed", metadata: ["error": "\(error)"])
                end(descriptor)
                return
            }
        }
        guard var connection = open[descriptor], !connection.answering, !bytes.isEmpty else { return }
        connection.received += bytes
        let request: HTTPRequest
        switch HTTPRequest.parse(connection.received, maximumBody: maximumBody) {
        case .incomplete:
            open[descriptor] = connection
            return
        case .refused(let reply):
            connection.answering = true
            connection.answeredAt = .now()
            connection.readerSuspended = true
            connection.reader.suspend()
            open[descriptor] = connection
            send(reply.head() + reply.body, to: descriptor)
            return
        case .request(var parsed):
            parsed.peer = connection.peer
            request = parsed
        }
        connection.answering = true
        connection.received = []
        connection.readerSuspended = true
        connection.reader.suspend()
        open[descriptor] = connection
        let handler = handler
        Task {
            let reply = await handler(request)
            queue.async { [self] in answer(descriptor, request, reply) }
        }
    }

    private func answer(_ descriptor: Int32, _ request: HTTPRequest, _ reply: HTTPReply) {
        guard var connection = open[descriptor] else { return }
        connection.answeredAt = .now()
        open[descriptor] = connection
        guard let events = reply.events, request.method != "HEAD" else {
            send(reply.head() + (request.method == "HEAD" ? [] : reply.body), to: descriptor)
            return
        }
        connection.closeWhenSent = false
        connection.readerSuspended = false
        connection.reader.resume()
        open[descriptor] = connection
        send(reply.head(), to: descriptor)
        // Each event is sent on the producing thread (`sync` runs the block there when the
        // queue is free, and every block on it is short and never blocks): an `async` would
        // wake one of Dispatch's threads for every event.
        let stop = events.start(
            EventSink(
                send: { [weak self] event in
                    self?.queue.sync { [self] in
                        guard let self, open[descriptor] != nil else { return false }
                        send(event, to: descriptor)
                        return open[descriptor] != nil
                    } ?? false
                },
                finish: { [weak self] in
                    self?.queue.async { [self] in
                        self?.open[descriptor]?.closeWhenSent = true
                        self?.send([], to: descriptor)
                    }
                }))
        if open[descriptor] != nil { open[descriptor]?.stopFeed = stop } else { stop() }
    }

    /// Sends `bytes` of the reply (as TLS records on a TLS connection).
    private func send(_ bytes: [UInt8], to descriptor: Int32) {
        guard let connection = open[descriptor] else { return }
        transmit(connection.tls?.seal(bytes) ?? bytes, to: descriptor)
    }

    /// Sends what the socket takes now and keeps the rest until it drains; ends the connection
    /// once the reply is all sent and nothing more is to come.
    private func transmit(_ bytes: [UInt8], to descriptor: Int32) {
        guard var connection = open[descriptor] else { return }
        var unsent = connection.unsent + bytes
        while !unsent.isEmpty {
            let count = unsent.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if count > 0 {
                unsent = unsent.dropFirst(count)
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                break
            } else {
                logger.debug("a client went away before its reply was sent", metadata: ["errno": "\(errno)"])
                end(descriptor)
                return
            }
        }
        if unsent.isEmpty && connection.closeWhenSent && connection.answering {
            if let alert = connection.tls?.close(), !alert.isEmpty {
                _ = alert.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            }
            end(descriptor)
            return
        }
        guard unsent.count <= Self.maximumUnsent else {
            logger.debug("a client does not read its event stream: ending it", metadata: ["unsent": "\(unsent.count)"])
            end(descriptor)
            return
        }
        connection.stalledSince = unsent.isEmpty ? nil : (connection.stalledSince ?? .now())
        if connection.stalledSince != nil && sweep == nil { startSweep() }
        connection.unsent = unsent
        if unsent.isEmpty {
            connection.writer?.cancel()
            connection.writer = nil
        } else if connection.writer == nil {
            let writer = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
            writer.setEventHandler { [unowned self] in transmit([], to: descriptor) }
            connection.writer = writer
            writer.resume()
        }
        open[descriptor] = connection
    }

    private func end(_ descriptor: Int32) {
        guard let connection = open.removeValue(forKey: descriptor) else { return }
        connection.stopFeed?()
        connection.writer?.cancel()
        connection.reader.cancel()
        // A suspended source runs its cancel handler (which closes the socket) once resumed.
        if connection.readerSuspended { connection.reader.resume() }
        if open.isEmpty {
            sweep?.cancel()
            sweep = nil
        }
    }

    /// `getpeername` as text: `192.0.2.7`, `::1`.
    private static func peer(of descriptor: Int32) -> String {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getpeername(descriptor, $0, &length) == 0 && getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0
            }
        }
        return named ? String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
    }

    private func startSweep() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1), leeway: .milliseconds(250))
        timer.setEventHandler { [unowned self] in
            let now = DispatchTime.now()
            for (descriptor, connection) in open {
                if let stalled = connection.stalledSince, stalled + Self.replyDeadline < now {
                    logger.debug("a client has read nothing of its reply for 10 s: ending it", metadata: ["unsent": "\(connection.unsent.count)"])
                    end(descriptor)
                } else if connection.stopFeed == nil {
                    let deadline =
                        connection.answeredAt.map { $0 + Self.replyDeadline }
                        ?? connection.opened + (connection.answering ? Self.handlerDeadline : Self.requestDeadline)
                    if deadline < now { end(descriptor) }
                }
            }
            if !open.values.contains(where: \.hasDeadline) {
                sweep?.cancel()
                sweep = nil
            }
        }
        sweep = timer
        timer.resume()
    }
}
