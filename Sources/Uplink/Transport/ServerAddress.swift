import OutputFormats
/// Where the JHE server is: its base URL (scheme, host, port, no trailing slash) and the FHIR
/// base path (`/FHIR/R5/` on current JHE, `/fhir/r5/` on v0.0.11 and older).
package struct ServerAddress: Codable, Sendable, Equatable {
    /// e.g. `https://jhe.example.org` or `http://127.0.0.1:8000`.
    package let baseURL: String
    /// e.g. `/FHIR/R5/`.
    package let fhirBasePath: String

    /// Validates `baseURL`: an absolute `https://` URL, or `http://` to a loopback host only.
    package init(baseURL: String, fhirBasePath: String = "/FHIR/R5/") throws(UplinkError) {
        var trimmed = baseURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let parts = URLParts(trimmed), parts.path.isEmpty || !parts.path.contains("?") else {
            throw UplinkError(.invalidBaseURL, "base URL \(Echo.quoted(baseURL)) is not an absolute http(s) URL such as https://jhe.example.org")
        }
        if parts.scheme == "http" && !LoopbackHost.isLoopback(parts.host) {
            throw UplinkError(
                .insecureURL, "base URL \(Echo.quoted(baseURL)) uses plain http:// to a non-loopback host; tokens and health data must go over https://")
        }
        self.baseURL = trimmed
        self.fhirBasePath = "/" + fhirBasePath.split(separator: "/").joined(separator: "/") + "/"
    }

    private enum CodingKeys: String, CodingKey {
        case baseURL
        case fhirBasePath
    }

    /// Reads an address back (from `credentials.json`) under the same rules as a new one, so a
    /// file edited to name a plain-http remote host is refused, not used.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let baseURL = try container.decode(String.self, forKey: .baseURL)
        let fhirBasePath = try container.decode(String.self, forKey: .fhirBasePath)
        do {
            try self.init(baseURL: baseURL, fhirBasePath: fhirBasePath)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .baseURL, in: container, debugDescription: error.message)
        }
    }

    /// The host (and port) part, for messages.
    package var host: String {
        guard let parts = URLParts(baseURL) else { return baseURL }
        return parts.port.map { "\(parts.host):\($0)" } ?? parts.host
    }

    /// `baseURL` + `path` (which starts with `/`).
    package func url(_ path: String) -> String { baseURL + path }

    /// The batch endpoint, `…/FHIR/R5/`.
    package var fhirBatchURL: String { baseURL + fhirBasePath }
}
