/// The proxy from the standard environment variables (`https_proxy`, `HTTPS_PROXY`,
/// `http_proxy`, `HTTP_PROXY`, and `no_proxy`/`NO_PROXY`), handed to libcurl as given: its
/// credentials (`http://user:password@proxy:3128`), its scheme (an `https://` proxy is spoken
/// to over TLS, verified) and `no_proxy` are libcurl's to apply, as `curl -x` does.
struct ProxySetting: Sendable {
    /// The proxy URL as the environment gives it; a bare `host:port` means `http://host:port`.
    /// Nil for none, or for one that is not an http(s) URL.
    let proxy: String?
    /// `no_proxy` as given: host names, domains, addresses and CIDR ranges, or `*`.
    let noProxy: String

    init(environment: [String: String]) {
        let given = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        let url = given.map { $0.contains("://") ? $0 : "http://" + $0 }
        proxy = url.flatMap { URLParts($0) != nil ? $0 : nil }
        noProxy = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
    }

    /// The proxy for a request to `host`: none for a loopback host (a local JHE or simulator is
    /// never reached through a proxy), else `proxy`, which libcurl skips for `no_proxy` hosts.
    func proxy(for host: String) -> String {
        LoopbackHost.isLoopback(host) ? "" : proxy ?? ""
    }
}
