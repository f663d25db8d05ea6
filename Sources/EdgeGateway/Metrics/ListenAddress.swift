/// `[metrics] listen`: where the Prometheus endpoint listens, `host:port` (`127.0.0.1:9464`,
/// `[::1]:9464`, `0.0.0.0:9464`; port 0 picks a free port).
struct ListenAddress: Sendable, Equatable {
    /// The setting could not be read as `host:port`.
    struct Invalid: Error, CustomStringConvertible {
        /// `metrics-listen-invalid`.
        let code = "metrics-listen-invalid"
        let description: String
    }

    /// The host or address to bind, without brackets.
    let host: String
    /// The port (0 lets the kernel choose).
    let port: Int

    /// Parses `host:port`; an IPv6 address is written in brackets.
    init(parsing text: String) throws(Invalid) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65535).contains(port)
        else {
            throw Invalid(description: "[metrics] listen = \"\(text)\" is not host:port (for example 127.0.0.1:9464); use \"\" to turn metrics off")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else {
            throw Invalid(description: "[metrics] listen = \"\(text)\" has no host; write 127.0.0.1:\(port) to serve locally")
        }
        self.host = host
        self.port = port
    }
}
