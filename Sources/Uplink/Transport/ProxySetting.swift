/// The proxy from the standard environment variables (`https_proxy`, `HTTPS_PROXY`,
/// `http_proxy`, `HTTP_PROXY`, and `no_proxy`/`NO_PROXY`), as curl and most tools read them.
struct ProxySetting: Sendable {
    let proxyURL: String?
    let noProxy: [String]

    init(environment: [String: String]) {
        proxyURL = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"]
            .lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        noProxy = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "")
            .split(separator: ",").map { $0.trimmingPrefix(".").lowercased() }.filter { !$0.isEmpty }
    }

    /// The HTTP proxy the environment names, as `http://host:port` (requests to https servers
    /// tunnel through it with CONNECT), or nil for none or one that is not an http(s) URL.
    var proxy: String? {
        guard let proxyURL, let parts = URLParts(proxyURL), ["http", "https"].contains(parts.scheme) else { return nil }
        let host = parts.host.contains(":") ? "[\(parts.host)]" : parts.host
        return "http://\(host):\(parts.port ?? 80)"
    }

    /// Whether a request to `host` goes direct: a loopback host always does, and so does any
    /// host `no_proxy` names (itself or a parent domain, or `*` for all).
    func bypasses(_ host: String) -> Bool {
        let host = host.lowercased()
        return LoopbackHost.isLoopback(host) || noProxy.contains { $0 == "*" || host == $0 || host.hasSuffix("." + $0) }
    }
}
