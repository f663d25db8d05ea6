import AsyncHTTPClient

/// The proxy from the standard environment variables (`https_proxy`, `HTTPS_PROXY`,
/// `http_proxy`, `HTTP_PROXY`, and `no_proxy`/`NO_PROXY`), as curl and most tools read them.
struct ProxySetting {
    let proxyURL: String?
    let noProxy: [String]

    init(environment: [String: String]) {
        proxyURL = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"]
            .lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        noProxy = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "")
            .split(separator: ",").map { $0.trimmingPrefix(".").lowercased() }.filter { !$0.isEmpty }
    }

    /// The proxy to use for `host`, or `nil` for a direct connection (always for loopback).
    func proxy(forHost host: String?) -> HTTPClient.Configuration.Proxy? {
        guard let proxyURL, let parts = URLParts(proxyURL) else { return nil }
        if let host = host?.lowercased() {
            if LoopbackHost.isLoopback(host) { return nil }
            if noProxy.contains(where: { $0 == "*" || host == $0 || host.hasSuffix("." + $0) }) { return nil }
        }
        return .server(host: parts.host, port: parts.port ?? 80)
    }
}
