import CCurl

/// The scheme, host, port and path of an absolute `http(s)://` URL, parsed by libcurl's own URL
/// API (`curl_url`), so the host this gateway checks is the host libcurl connects to.
///
/// Text with a control character (NUL included) is refused before libcurl sees it: C strings
/// end at a NUL, so `127.0.0.1\0.evil.example` would be checked as one host and reach another.
struct URLParts: Equatable {
    let scheme: String
    /// The host without IPv6 brackets (`::1`, `jhe.example.org`).
    let host: String
    let port: Int?
    /// The path and query (`/jhe/api?x=1`); empty for none or `/`.
    let path: String
    /// The query without its `?` (nil when absent).
    let query: String?
    /// Whether the URL carries `user:password@`.
    let hasCredentials: Bool

    init?(_ text: String) {
        guard !ControlCharacters.present(in: text), let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, text, 0) == CURLUE_OK,
            let scheme = Self.part(handle, CURLUPART_SCHEME)?.lowercased(), scheme == "http" || scheme == "https",
            var host = Self.part(handle, CURLUPART_HOST), !host.isEmpty
        else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.scheme = scheme
        self.host = host
        port = Self.part(handle, CURLUPART_PORT).flatMap { Int($0) }
        query = Self.part(handle, CURLUPART_QUERY)
        let path = Self.part(handle, CURLUPART_PATH) ?? ""
        self.path = (path == "/" ? "" : path) + (query.map { "?" + $0 } ?? "")
        hasCredentials = Self.part(handle, CURLUPART_USER) != nil || Self.part(handle, CURLUPART_PASSWORD) != nil
    }

    /// `host` or `host:port` as the URL gives it, IPv6 hosts bracketed.
    var authority: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(bracketed):\($0)" } ?? bracketed
    }

    private static func part(_ handle: OpaquePointer, _ which: CURLUPart) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, which, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}

/// Which text may not go near a URL or a message: C0 controls (NUL included) and DEL.
enum ControlCharacters {
    static func present(in text: some StringProtocol) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }
}

/// Which hosts count as this machine, the only ones plain `http://` is allowed to: 127.0.0.0/8,
/// `::1` and `localhost` (which the resolver answers from /etc/hosts). Names under `.localhost`
/// are not: glibc sends them to DNS, whose answer may point anywhere.
package enum LoopbackHost {
    /// Whether `host` (a name or an address without brackets) is this machine.
    package static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" { return true }
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
