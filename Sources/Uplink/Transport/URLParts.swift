/// The scheme, host and port of an absolute `http(s)://` URL, parsed without Foundation's `URL`
/// so that bracketed IPv6 hosts and ports are handled the same everywhere.
struct URLParts: Equatable {
    let scheme: String
    let host: String
    let port: Int?
    /// Everything from the first `/` after the authority (empty when there is none).
    let path: String

    init?(_ text: String) {
        let pieces = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard pieces.count == 2 else { return nil }
        scheme = pieces[0].lowercased()
        let rest = pieces[1]
        let delimiters: Set<Character> = ["/", "?", "#"]
        let authorityEnd: Substring.Index = rest.firstIndex(where: delimiters.contains) ?? rest.endIndex
        let authority = rest[..<authorityEnd].split(separator: "@").last.map(String.init) ?? ""
        path = String(rest[authorityEnd...])
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex) ..< close])
            let after = authority[authority.index(after: close)...]
            port = after.hasPrefix(":") ? Int(after.dropFirst()) : nil
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let number = Int(authority[authority.index(after: colon)...]) else { return nil }
            port = number
        } else {
            host = authority
            port = nil
        }
        guard !host.isEmpty, scheme == "http" || scheme == "https" else { return nil }
    }
}

/// Which hosts count as this machine, the only ones plain `http://` is allowed to: 127.0.0.0/8,
/// `::1` and `localhost` (which the resolver answers from /etc/hosts). Names under `.localhost`
/// are not: glibc sends them to DNS, whose answer may point anywhere.
public enum LoopbackHost {
    /// Whether `host` (a name or an address without brackets) is this machine.
    public static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" { return true }
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
