import OutputFormats
/// A JHE patient invitation, from the whole link (`https://app/invite?code=host%3A443_TOKEN`)
/// or the bare code (`host:443_TOKEN`, encoded or not): the API host and the token.
package struct InvitationCode: Sendable, Equatable {
    /// `jhe.example.org` or `jhe.example.org:443`.
    package let host: String
    /// The invitation token (32 characters `[A-Za-z0-9]` on current JHE). Secret until redeemed.
    package let token: String

    /// Parses a link or a code: takes the `code` query parameter of a link, URL-decodes it and
    /// splits at the **last** `_` (a token never contains one, a host may).
    ///
    /// A link must be `https://` (or `http://` to this machine), parsed by libcurl; control
    /// characters are refused anywhere, before and after decoding, and the code's host must be
    /// exactly the host libcurl would contact, so the host checked is the host reached.
    package init(parsing input: String) throws(UplinkError) {
        var trimmed = Substring(input)
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        let text = String(trimmed)
        guard !ControlCharacters.present(in: text) else {
            throw UplinkError(.invalidInvitation, "the invitation contains a control character (a line break, a tab or a NUL); copy the link again as one line")
        }
        var code = Substring(text)
        if text.contains("://") || text.contains("?") {
            code = try Self.codeParameter(ofLink: text)
        }
        guard let decoded = FormEncoding.unescape(code) else {
            throw UplinkError(.invalidInvitation, "the invitation code is not valid URL encoding; copy it again from the invitation")
        }
        guard !ControlCharacters.present(in: decoded) else {
            throw UplinkError(.invalidInvitation, "the invitation code encodes a control character (such as %00); it is not a JHE invitation")
        }
        if decoded.contains("~") {
            throw UplinkError(
                .unsupportedInvitationFormat,
                "this invitation uses the host~client~code~verifier format of JHE v0.0.9–0.0.10, which this gateway does not support; ask for an invitation from a current JHE server"
            )
        }
        guard let split = decoded.lastIndex(of: "_") else {
            throw UplinkError(
                .invalidInvitation,
                "the invitation code has no '_' between host and token; expected HOST_TOKEN as in the invitation link (bare authorization codes of JHE v0.0.8 and older are not supported)"
            )
        }
        let host = String(decoded[..<split])
        let token = String(decoded[decoded.index(after: split)...])
        guard !host.isEmpty, host.utf8.count <= 260, let parts = URLParts("https://" + host), parts.path.isEmpty, !parts.hasCredentials,
            parts.authority.lowercased() == host.lowercased()
        else {
            throw UplinkError(.invalidInvitation, "the invitation code names no valid host before the '_' (found \(Echo.quoted(host))); copy the link again")
        }
        guard !token.isEmpty, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw UplinkError(.invalidInvitation, "the invitation token after the last '_' must be letters and digits (\(token.count) characters found)")
        }
        self.host = host
        self.token = token
    }

    /// The `code` parameter of an invitation link, which must be `https://`, or `http://` to a
    /// loopback host (a local JHE).
    private static func codeParameter(ofLink link: String) throws(UplinkError) -> Substring {
        guard let parts = URLParts(link), parts.scheme == "https" || LoopbackHost.isLoopback(parts.host) else {
            throw UplinkError(
                .invalidInvitation,
                "the invitation link \(Echo.quoted(link)) is not an https:// link (http:// only to this machine); paste the link from the invitation, or just its code"
            )
        }
        guard let parameter = (parts.query ?? "").split(separator: "&").first(where: { $0.hasPrefix("code=") }) else {
            throw UplinkError(.invalidInvitation, "the invitation link has no code= parameter; paste the whole link from the invitation, or just its code")
        }
        return parameter.dropFirst("code=".count)
    }

    /// The API base URL the link implies: `https://host`, or `http://host` for a loopback host
    /// (a local simulator or development server).
    package var impliedBaseURL: String {
        let hostOnly =
            host.hasPrefix("[")
            ? String(host.prefix { $0 != "]" }.dropFirst())
            : String(host.split(separator: ":").first ?? "")
        return (LoopbackHost.isLoopback(hostOnly) ? "http://" : "https://") + host
    }

    /// The PKCE `code_verifier` JHE expects: base64url of the token's UTF-8 bytes, no padding.
    package var codeVerifier: String { Base64URL.encode(Array(token.utf8)) }
}
