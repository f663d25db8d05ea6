import Dispatch
import GatewayConfiguration
import Logging
import ServiceLifecycle

/// Serves `GET /metrics` (Prometheus text format) on `[metrics] listen`.
///
/// A scrape every 15 s or so needs no web framework: the listening socket is a Dispatch read
/// source (nothing runs between scrapes), and each connection gets one request and one reply
/// (`MetricsExchange`), served on its own with deadlines and a cap (`MetricsConnections`). Runs as a swift-service-lifecycle `Service`: it stops when its group
/// shuts down gracefully or its task is cancelled. The text comes from a closure, so the server
/// knows nothing about where the numbers live.
final class MetricsServer: Service, Sendable {
    private let address: ListenAddress
    private let logger: Logger
    private let render: @Sendable () async -> String
    private let bound = BoundPort()

    /// A server for `address` answering with `render()`'s text.
    init(address: ListenAddress, logger: Logger = Logger(label: "edge-gateway.metrics"), render: @escaping @Sendable () async -> String) {
        self.address = address
        self.logger = logger
        self.render = render
    }

    /// The port actually bound (useful with port 0), once listening; nil if serving failed or
    /// ended before it could listen.
    var port: Int? {
        get async { await bound.wait() }
    }

    /// Serves until cancelled or the service group shuts down; throws `MetricsListenError`
    /// when the address cannot be bound.
    func run() async throws {
        let listener: MetricsListener
        do {
            listener = try MetricsListener(address)
        } catch {
            await bound.set(nil)
            throw error
        }
        let queue = DispatchQueue(label: "edge-gateway.metrics")
        let connections = MetricsConnections(queue: queue, logger: logger, render: render)
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
        logger.info("serving metrics", metadata: ["listen": "\(address.host):\(listener.port)"])
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
