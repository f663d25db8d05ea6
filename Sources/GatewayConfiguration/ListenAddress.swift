import Uplink

/// `[metrics] listen` taken apart: the host (a name, an IPv4 address, or an IPv6 address that
/// was written in brackets) and the port the metrics server binds.
package struct ListenAddress: Sendable, Equatable {
    /// `127.0.0.1`, `localhost`, `::1` (without brackets).
    package let host: String
    /// The TCP port, 1…65535.
    package let port: Int

    /// An address from its parts (port 0: the kernel picks one, for tests).
    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port` or `[ipv6]:port`; nil for anything else, including port 0.
    package init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let portText = text[text.index(after: colon)...]
        guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText), (1 ... 65_535).contains(port) else {
            return nil
        }
        var host = text[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = host.dropFirst().dropLast()
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                return nil
            }
        }
        self.host = String(host)
        self.port = port
    }

    /// Whether only this machine can connect: 127.0.0.0/8, `::1` or `localhost`. Anything else
    /// (`0.0.0.0`, a LAN address) serves strap addresses and counts to the network without
    /// authentication, which the daemon allows but warns about.
    package var isLoopback: Bool { LoopbackHost.isLoopback(host) }
}
