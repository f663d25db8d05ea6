import CCurl

/// How every request of one `CurlTransport` reaches its server: trust, proxy, connect timeout,
/// and the options that keep a token where it belongs.
struct CurlSettings: Sendable {
    /// A PEM file of extra trust roots, used beside the system's.
    let caFile: String?
    let proxySetting: ProxySetting
    let connectTimeout: Duration

    /// Sets `handle`'s options for a request to `url` that must end within `timeout`.
    ///
    /// - Certificate and host-name verification are always on. `ca_file` goes in CAINFO while
    ///   CAPATH keeps the system's hashed store (`/etc/ssl/certs`), so OpenSSL trusts both.
    /// - Redirects are never followed: one would re-post a refresh token or a Bundle of health
    ///   data to whatever origin the reply names. The 3xx comes back to the caller.
    /// - Only http and https, HTTP/1.1 (what JHE serves), no signals (the handle is used off the
    ///   main thread), and one deadline for the whole exchange, body included.
    /// - The proxy is set on every request from the environment this transport was given (never
    ///   the process's own, which libcurl would read by itself): the URL as given, credentials
    ///   and scheme included, `no_proxy` applied by libcurl, loopback hosts always direct, and
    ///   an https proxy verified like the server.
    func apply(to handle: UnsafeMutableRawPointer, url: String, timeout: Duration) {
        egw_curl_set_string(handle, CURLOPT_URL, url)
        egw_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        egw_curl_set_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        egw_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        egw_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        egw_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        egw_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile {
            egw_curl_set_string(handle, CURLOPT_CAINFO, caFile)
            egw_curl_set_string(handle, CURLOPT_CAPATH, "/etc/ssl/certs")
        }
        egw_curl_set_long(handle, CURLOPT_TIMEOUT_MS, timeout.roundedUpMilliseconds)
        egw_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(connectTimeout, timeout).roundedUpMilliseconds)
        egw_curl_set_string(handle, CURLOPT_PROXY, proxySetting.proxy(for: URLParts(url)?.host ?? ""))
        egw_curl_set_string(handle, CURLOPT_NOPROXY, proxySetting.noProxy)
        egw_curl_set_long(handle, CURLOPT_PROXY_SSL_VERIFYPEER, 1)
        egw_curl_set_long(handle, CURLOPT_PROXY_SSL_VERIFYHOST, 2)
        if let caFile {
            egw_curl_set_string(handle, CURLOPT_PROXY_CAINFO, caFile)
            egw_curl_set_string(handle, CURLOPT_PROXY_CAPATH, "/etc/ssl/certs")
        }
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a short deadline never becomes "no deadline" (libcurl
    /// reads 0 as that), and saturating, for libcurl's `long` options.
    var roundedUpMilliseconds: Int {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 1 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return .max }
        let rest = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return max(1, Int(whole) + Int(rest))
    }
}
