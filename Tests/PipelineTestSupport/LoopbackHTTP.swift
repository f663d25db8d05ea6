import Uplink

/// One-off HTTP requests to a server the test started on loopback (the metrics endpoint), through
/// the same transport the gateway uses, so a scrape in a test goes over real sockets.
package enum LoopbackHTTP {
    /// `GET url`.
    package static func get(_ url: String, timeout: Duration = .seconds(30)) async throws -> TransportResponse {
        let transport = try CurlTransport(connectTimeout: min(timeout, .seconds(5)))
        return try await transport.send(TransportRequest(method: "GET", url: url), timeout: timeout)
    }
}
