import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#endif

/// `HTTPTransport` over swift-server/async-http-client.
///
/// Chosen over FoundationNetworking's `URLSession`, which on Linux cannot be given a custom CA
/// (it only ever uses the system bundle), reports every TLS failure as code -1, and grew in
/// memory per request. Here: system trust store plus an optional `ca_file`, certificate
/// verification always on, proxy from `https_proxy`/`http_proxy`/`no_proxy`, per-request deadline,
/// redirects never followed.
public final class AsyncHTTPTransport: HTTPTransport {
    /// Connects straight to the server.
    private let direct: HTTPClient
    /// Connects through the environment's proxy; nil when none is set.
    private let proxied: HTTPClient?
    private let proxySetting: ProxySetting
    /// The largest reply body read (JHE replies are small; this bounds memory on a bad server).
    private let maximumBodyBytes = 16 * 1024 * 1024

    /// A transport; `caFile` adds a PEM trust root to the system ones. Each request's host
    /// decides whether it goes through the environment's proxy (`no_proxy` and loopback hosts
    /// go direct). A connection is tried once, for at most `connectTimeout`; retrying is the
    /// caller's job.
    public init(caFile: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                connectTimeout: Duration = .seconds(10)) throws(UplinkError) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if let caFile {
            try Self.checkCAFile(caFile)
            tls.additionalTrustRoots = [.file(caFile)]
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.timeout = .init(connect: .nanoseconds(connectTimeout.nanoseconds), read: .seconds(60))
        // One attempt per connection: the uploader's own loop retries (with a cheap probe while
        // the server is down), so a refused connection should fail the request at once rather
        // than be retried here until `connectTimeout`, which hid the start of an outage for
        // that long and delayed noticing the server's return.
        configuration.connectionPool.retryConnectionEstablishment = false
        // A redirect is never followed: it would re-post a refresh token or a Bundle of health
        // data to whatever origin the reply names, and take that origin's answer for JHE's.
        // The 3xx comes back to the caller, which acknowledges nothing on it.
        configuration.redirectConfiguration = .disallow
        proxySetting = ProxySetting(environment: environment)
        direct = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        configuration.proxy = proxySetting.proxy
        proxied = configuration.proxy == nil ? nil : HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Whether `path` holds at least one PEM certificate, as `ca_file` must; checked when the
    /// configuration is loaded, so a damaged file stops the daemon with a configuration error
    /// (which systemd does not restart in a loop) instead of a failure at start.
    public static func checkCAFile(_ path: String) throws(UplinkError) {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw UplinkError(.invalidCAFile, "ca_file \(path) could not be read as PEM certificates (\(error)); fix the path or the file")
        }
        guard !certificates.isEmpty else {
            throw UplinkError(.invalidCAFile, "ca_file \(path) holds no PEM certificate; fix the path or the file")
        }
    }

    /// Closes the connection pool; call once when done.
    public func shutdown() async {
        try? await direct.shutdown()
        try? await proxied?.shutdown()
    }

    /// Sends `request`; the whole exchange, reply body included, runs under `timeout`
    /// (async-http-client's own deadline ends with the response head).
    public func send(_ request: TransportRequest, timeout: Duration) async throws(UplinkError) -> TransportResponse {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let host = URLParts(request.url)?.host ?? "the server"
        let client = proxied.flatMap { proxySetting.bypasses(host) ? nil : $0 } ?? direct
        do {
            return try await Deadline.run(within: timeout) { [client, maximumBodyBytes, outgoing] in
                let response = try await client.execute(outgoing, timeout: .nanoseconds(timeout.nanoseconds))
                let body = try await response.body.collect(upTo: maximumBodyBytes)
                return TransportResponse(
                    status: Int(response.status.code),
                    headers: response.headers.map { ($0.name, $0.value) },
                    body: Data(body.readableBytesView))
            }
        } catch let error as HTTPClientError where Self.isTimeout(error) {
            throw UplinkError(.timedOut, "no reply from \(host) within \(timeout) (\(error)); the network or server is slow, it will be retried")
        } catch is Deadline.Exceeded {
            throw UplinkError(.timedOut, "the reply from \(host) did not arrive whole within \(timeout); the network or server is slow, it will be retried")
        } catch {
            throw UplinkError(.connectionFailed, "could not talk to \(host): \(Self.describe(error)); check the network, the URL and TLS trust (ca_file)")
        }
    }

    private static func isTimeout(_ error: HTTPClientError) -> Bool {
        [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error)
    }

    /// AHC's and NIO's error descriptions name the failure (refused, reset, certificate) and never
    /// carry request headers or bodies, so they are safe to show. A refused connection, the
    /// commonest failure of all, is said plainly (NIO words it "connection reset (error set):
    /// Connection refused (errno: 111)").
    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("Connection refused") || text.contains("errno: 111") {
            return "connection refused (nothing answers on that port: the server is down, or the URL's port is wrong)"
        }
        return text
    }
}
