import ConsoleSecurity
import Dispatch
import GatewayConfiguration
import Logging
import ServiceLifecycle

/// One of the box's own small HTTP servers: `/metrics` on `[metrics] listen`, the console on
/// `[web] listen`.
///
/// Scrapes every 15 s and a few browsers need no web framework: the listening socket is a
/// Dispatch read source (nothing runs between requests), and each connection gets one request
/// and one reply, whole or a stream of events, served on its own with deadlines and a cap
/// (`HTTPConnections`). Runs as a swift-service-lifecycle `Service`: it stops when its group
/// shuts down gracefully or its task is cancelled. Replies come from a closure, so the server
/// knows nothing about what it serves.
final class HTTPServer: Service, Sendable {
    /// What a server is, for its log lines and errors.
    struct Role: Sendable {
        /// "metrics".
        let name: String
        /// "[metrics] listen".
        let key: String
        let code: HTTPListenError.Code
        /// The largest request body taken.
        let maximumBody: Int

        static let metrics = Role(name: "metrics", key: "[metrics] listen", code: .metricsListenFailed, maximumBody: 0)
        static let console = Role(name: "the console", key: "[web] listen", code: .consoleListenFailed, maximumBody: 16 << 10)
    }

    private let address: ListenAddress
    private let role: Role
    private let logger: Logger
    private let handler: @Sendable (HTTPRequest) async -> HTTPReply
    private let tls: TLSContext?
    private let bound = BoundPort()

    /// A server for `address` answering with `handler`, over TLS when `tls` is given.
    init(
        address: ListenAddress, role: Role, logger: Logger = Logger(label: "edge-gateway.http"), tls: TLSContext? = nil,
        handler: @escaping @Sendable (HTTPRequest) async -> HTTPReply
    ) {
        self.address = address
        self.role = role
        self.logger = logger
        self.tls = tls
        self.handler = handler
    }

    /// The port actually bound (useful with port 0), once listening; nil if serving failed or
    /// ended before it could listen.
    var port: Int? {
        get async { await bound.wait() }
    }

    /// Serves until cancelled or the service group shuts down; throws `HTTPListenError` when
    /// the address cannot be bound.
    func run() async throws {
        let listener: HTTPListener
        do {
            listener = try HTTPListener(address, for: role)
        } catch {
            await bound.set(nil)
            throw error
        }
        let queue = DispatchQueue(label: "edge-gateway.http.\(role.code.rawValue)")
        let connections = HTTPConnections(queue: queue, logger: logger, maximumBody: role.maximumBody, tls: tls, handler: handler)
        let source = DispatchSource.makeReadSource(fileDescriptor: listener.descriptor, queue: queue)
        source.setEventHandler {
            while let connection = listener.accept() { connections.add(connection) }
        }
        source.setCancelHandler {
            listener.close()
            connections.endAll()
        }
        source.resume()
        await bound.set(listener.port)
        logger.info("serving \(role.name)", metadata: ["listen": "\(address.host):\(listener.port)"])
        try? await gracefulShutdown()
        source.cancel()
    }
}

/// The bound port, for callers that wait for the server to listen.
private actor BoundPort {
    private var port: Int??
    private var waiters: [CheckedContinuation<Int?, Never>] = []

    /// Records the port (nil: the server ended without one); later calls change nothing.
    func set(_ value: Int?) {
        guard port == nil else { return }
        port = .some(value)
        for waiter in waiters { waiter.resume(returning: value) }
        waiters = []
    }

    func wait() async -> Int? {
        if let port { return port }
        return await withCheckedContinuation { waiters.append($0) }
    }
}
