/// What the configuration says about the server (`[uplink] base_url` and `fhir_path`), judged
/// against the enrolment: the one place that decides where uploads, renewals, `status` and
/// `doctor` go.
///
/// The enrolment is the source of truth for the server, because its tokens were issued there
/// and a bearer token must never reach another origin. A configured `base_url` is therefore
/// not a redirect but a statement: when it names another server, nothing is sent anywhere and
/// the operator is told that a moved server needs a new enrolment. `fhir_path` is a path on the
/// enrolled server itself, so a configured one is simply used (JHE moved it from `/fhir/r5/` to
/// `/FHIR/R5/` between releases).
package struct ServerSettings: Sendable, Equatable {
    /// `[uplink] base_url`; nil means "the enrolled server".
    package var baseURL: String?
    /// `[uplink] fhir_path`; nil means "the path recorded at enrolment".
    package var fhirPath: String?

    /// Settings from the configuration's two keys.
    package init(baseURL: String? = nil, fhirPath: String? = nil) {
        self.baseURL = baseURL
        self.fhirPath = fhirPath
    }

    /// The server to talk to on behalf of `credentials`, or `uplink.server-moved` when the
    /// configuration names a server other than the one that issued the credentials.
    package func server(for credentials: Credentials) throws(UplinkError) -> ServerAddress {
        let enrolled = credentials.server
        if let baseURL {
            let configured = try ServerAddress(baseURL: baseURL)
            guard configured.sameServer(as: enrolled) else {
                throw UplinkError(
                    .serverMoved,
                    "gateway.toml sets [uplink] base_url = \(configured.baseURL), but this gateway is enrolled with \(enrolled.baseURL), which issued its tokens; nothing is sent to either. A moved server needs a new enrolment: run `edge-gateway enroll` with an invitation from \(configured.baseURL) (or remove base_url to keep \(enrolled.baseURL)); samples keep buffering meanwhile"
                )
            }
        }
        return try ServerAddress(baseURL: enrolled.baseURL, fhirBasePath: fhirPath ?? enrolled.fhirBasePath)
    }
}

extension ServerAddress {
    /// Whether two base URLs name the same server: scheme, host (case-insensitive), port (the
    /// scheme's default when absent) and path prefix.
    func sameServer(as other: ServerAddress) -> Bool {
        guard let mine = URLParts(baseURL), let theirs = URLParts(other.baseURL) else { return baseURL == other.baseURL }
        return mine.scheme == theirs.scheme && mine.host.lowercased() == theirs.host.lowercased()
            && (mine.port ?? mine.defaultPort) == (theirs.port ?? theirs.defaultPort) && mine.path == theirs.path
    }
}

extension URLParts {
    /// 443 for https, 80 for http.
    var defaultPort: Int { scheme == "https" ? 443 : 80 }
}
