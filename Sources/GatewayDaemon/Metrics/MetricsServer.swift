import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Serves `GET /metrics` (Prometheus text format) on `[metrics] listen`, with Hummingbird.
/// Runs as a swift-service-lifecycle `Service`: it stops when its group shuts down gracefully.
/// The text comes from a closure, so the server knows nothing about where the numbers live.
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

    /// Serves until cancelled or the service group shuts down.
    func run() async throws {
        let router = Router()
        let render = render
        router.get("/metrics") { _, _ in
            let text = await render()
            return Response(
                status: .ok, headers: [.contentType: PrometheusExposition.contentType],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        let bound = bound
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "edge-gateway"),
            onServerRunning: { channel in await bound.set(channel.localAddress?.port) },
            logger: logger)
        do {
            try await app.run()
        } catch {
            await bound.set(nil)
            throw error
        }
        await bound.set(nil)
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
