#if canImport(FoundationEssentials)
import FoundationEssentials
#else
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#endif

/// One HTTP request as the uplink builds it.
public struct TransportRequest: Sendable {
    /// `GET` or `POST`.
    public var method: String
    /// Absolute URL.
    public var url: String
    /// Header fields, in order.
    public var headers: [(String, String)]
    /// Request body.
    public var body: Data?

    /// A request from its parts.
    public init(method: String, url: String, headers: [(String, String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// The reply to a `TransportRequest`, body fully read.
public struct TransportResponse: Sendable {
    /// HTTP status code.
    public var status: Int
    /// Header fields.
    public var headers: [(String, String)]
    /// The body.
    public var body: Data

    /// A response from its parts.
    public init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// The seam between the uplink and the network: the production one is `CurlTransport`,
/// tests can drive the uplink through any other. Failures to get any reply (refused, reset,
/// TLS, timeout) are thrown as `UplinkError` with `connectionFailed` or `timedOut`.
public protocol HTTPTransport: Sendable {
    /// Sends a request and reads the whole reply, giving up after `timeout`.
    func send(_ request: TransportRequest, timeout: Duration) async throws(UplinkError) -> TransportResponse
}
