import CCurl
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `HTTPTransport` over the system's libcurl, with the distribution's OpenSSL and CA store.
///
/// Chosen over async-http-client (with swift-nio and BoringSSL inside the binary) for the
/// footprint (docs/PERFORMANCE.md): the shipped binary carries no TLS stack of its own, and TLS
/// fixes arrive with Debian's security updates. FoundationNetworking's `URLSession` was never an
/// option: on Linux it cannot be given a custom CA. Here: system trust store plus an optional
/// `ca_file`, verification always on, proxy from `https_proxy`/`http_proxy`/`no_proxy`, one
/// deadline per request covering the body, redirects never followed. Every transport shares the
/// process's one HTTP thread (`CurlEngine`), so keeping several costs nothing.
package struct CurlTransport: HTTPTransport {
    private let settings: CurlSettings
    /// The largest reply body read (JHE replies are small; this bounds memory on a bad server).
    private let maximumBodyBytes = 16 * 1024 * 1024

    /// A transport; `caFile` adds a PEM trust root to the system ones. Each request's host
    /// decides whether it goes through the environment's proxy (`no_proxy` and loopback hosts
    /// go direct). A connection is tried once, for at most `connectTimeout`; retrying is the
    /// caller's job (the uploader probes cheaply while the server is down).
    package init(
        caFile: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        connectTimeout: Duration = .seconds(10)
    ) throws(UplinkError) {
        if let caFile { try PEMTrustRoots.check(caFile) }
        settings = CurlSettings(caFile: caFile, proxySetting: ProxySetting(environment: environment), connectTimeout: connectTimeout)
    }

    /// Sends `request`; the whole exchange, reply body included, runs under `timeout`.
    /// Cancelling the calling task ends the request at once.
    package func send(_ request: TransportRequest, timeout: Duration) async throws(UplinkError) -> TransportResponse {
        let host = URLParts(request.url)?.host ?? "the server"
        // libcurl sends header lines as given: a value with a line break (a token from a hostile
        // server, say) would add headers of its own choosing to the request.
        if let (name, _) = request.headers.first(where: { Self.breaksLine($0.0) || Self.breaksLine($0.1) }) {
            throw UplinkError(
                .unexpectedReply, "the \(name) header for \(host) holds a line break or NUL (a value the server sent?); the request was not sent")
        }
        guard let transfer = CurlTransfer(request, settings: settings, timeout: timeout, maximumBodyBytes: maximumBodyBytes) else {
            throw UplinkError(.connectionFailed, "could not start a request to \(host): libcurl is out of memory; restart the gateway")
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.awaitOutcome(continuation)
                CurlEngine.shared.submit(transfer)
            }
        } onCancel: {
            transfer.cancel()
        }
        switch outcome {
        case .replied(let response):
            return response
        case .tooLarge:
            throw UplinkError(
                .unexpectedReply, "the reply from \(host) is larger than \(maximumBodyBytes / 1024 / 1024) MiB, which no JHE reply is; check the server URL")
        case .cancelled:
            throw UplinkError(.connectionFailed, "the request to \(host) was abandoned because the gateway is stopping; it will be sent again")
        case .failed(let code, let detail, let systemError):
            throw Self.error(code, detail: detail, systemError: systemError, host: host, timeout: timeout)
        }
    }

    private static func breaksLine(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 }
    }

    /// libcurl's failure in the uplink's words. libcurl's own text names the failure
    /// (refused, reset, certificate) and never carries request headers or bodies, so it is safe
    /// to show; the commonest failure of all, a refused connection, is said plainly.
    static func error(_ code: CURLcode, detail: String, systemError: Int, host: String, timeout: Duration) -> UplinkError {
        if code == CURLE_OPERATION_TIMEDOUT {
            return UplinkError(
                .timedOut, "the reply from \(host) did not arrive whole within \(timeout) (\(detail)); the network or server is slow, it will be retried",
                mayHaveReachedServer: true)
        }
        let reason =
            code == CURLE_COULDNT_CONNECT && systemError == Int(ECONNREFUSED)
            ? "connection refused (nothing answers on that port: the server is down, or the URL's port is wrong)"
            : detail
        // Sent, or being sent, when the connection broke: the server may have acted on it.
        let midExchange = [CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE].contains(code)
        return UplinkError(
            .connectionFailed, "could not talk to \(host): \(reason); check the network, the URL and TLS trust (ca_file)",
            mayHaveReachedServer: midExchange)
    }
}
