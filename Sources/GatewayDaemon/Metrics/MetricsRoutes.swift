import GatewayPipeline

/// What the metrics server answers: `GET /metrics` (or `HEAD`) with the Prometheus text, and a
/// short error for anything else. The text comes from a closure, so the routes know nothing
/// about where the numbers live.
enum MetricsRoutes {
    /// The handler for `HTTPServer` with the text `render` makes.
    static func handler(render: @escaping @Sendable () async -> String) -> @Sendable (HTTPRequest) async -> HTTPReply {
        { request in
            guard request.path == "/metrics" else { return .text(404, "Not Found", "only /metrics is served here\n") }
            guard request.method == "GET" || request.method == "HEAD" else {
                return .text(405, "Method Not Allowed", "/metrics answers GET\n", headers: [("Allow", "GET, HEAD")])
            }
            return HTTPReply(
                status: 200, reason: "OK", headers: [("Content-Type", PrometheusMetrics.contentType)], body: Array(await render().utf8))
        }
    }
}
