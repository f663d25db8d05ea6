import Foundation

/// A request as the simulator's handlers see it: already read, independent of the HTTP library.
struct SimulatorRequest: Sendable {
    let method: String
    /// The path exactly as sent (JHE's paths are case-sensitive and end in `/`).
    let path: String
    /// Query parameters, percent-decoded.
    let query: [String: String]
    /// Header fields with lower-case names.
    let headers: [String: String]
    let body: Data

    /// The bearer token, if the request carries one.
    var bearerToken: String? {
        guard let value = headers["authorization"], value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst("Bearer ".count))
    }
}

/// A reply before it becomes an HTTP response.
struct SimulatorReply: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data

    /// A JSON reply; `object` must be JSON-serialisable (dictionaries, arrays, strings, numbers).
    static func json(_ status: Int, _ object: Any, headers: [(String, String)] = []) -> SimulatorReply {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return SimulatorReply(status: status, headers: [("Content-Type", "application/json")] + headers, body: data)
    }

    /// An OAuth error (`{"error": …}`) as django-oauth-toolkit sends it.
    static func oauthError(_ status: Int, _ error: String, _ description: String? = nil) -> SimulatorReply {
        var object: [String: Any] = ["error": error]
        if let description { object["error_description"] = description }
        return .json(status, object)
    }

    /// Django REST framework's `{"detail": …}`.
    static func detail(_ status: Int, _ text: String, headers: [(String, String)] = []) -> SimulatorReply {
        .json(status, ["detail": text], headers: headers)
    }
}
