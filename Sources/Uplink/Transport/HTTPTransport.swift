#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One HTTP request as the uplink builds it.
package struct TransportRequest: Sendable {
    /// `GET` or `POST`.
    package var method: String
    /// Absolute URL.
    package var url: String
    /// Header fields, in order.
    package var headers: [(String, String)]
    /// Request body, as bytes: an upload's JSON goes from its writer to libcurl uncopied.
    package var body: [UInt8]?

    /// A request from its parts.
    package init(method: String, url: String, headers: [(String, String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// The reply to a `TransportRequest`, body fully read.
package struct TransportResponse: Sendable {
    /// HTTP status code.
    package var status: Int
    /// Header fields.
    package var headers: [(String, String)]
    /// The body.
    package var body: Data

    /// A response from its parts.
    package init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, compared case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// The seam between the uplink and the network: the production one is `CurlTransport`,
/// tests can drive the uplink through any other. Failures to get any reply (refused, reset,
/// TLS, timeout) are thrown as `UplinkError` with `connectionFailed` or `timedOut`.
package protocol HTTPTransport: Sendable {
    /// Sends a request and reads the whole reply, giving up after `timeout`.
    func send(_ request: TransportRequest, timeout: Duration) async throws(UplinkError) -> TransportResponse
}
