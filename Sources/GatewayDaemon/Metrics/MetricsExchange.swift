/// One scrape's HTTP, without the socket: what a request head asks for, and the reply's bytes.
/// The head is hostile until checked (at most 8 KiB); anything but `GET /metrics` (or `HEAD`)
/// gets a short error reply.
enum MetricsExchange {
    static let maximumHeadBytes = 8192

    /// What to answer.
    enum Answer: Equatable {
        /// The metrics text (`withBody` false for HEAD).
        case metrics(withBody: Bool)
        /// An error reply.
        case error(status: Int, reason: String, body: String, extraHeaders: String = "")
    }

    /// The answer to the bytes received so far, or nil while the head may still be arriving.
    static func answer(toHead head: [UInt8]) -> Answer? {
        guard let blank = head.firstRange(of: Array("\r\n\r\n".utf8)) else {
            guard head.count < maximumHeadBytes else {
                return .error(status: 400, reason: "Bad Request", body: "the request was not an HTTP/1.1 request head of at most 8 KiB\n")
            }
            return nil
        }
        let text = String(decoding: head[..<blank.lowerBound], as: UTF8.self)
        let parts = (text.split(separator: "\r\n", maxSplits: 1).first ?? "").split(separator: " ")
        let path = parts.count == 3 ? parts[1].prefix { $0 != "?" } : ""
        if parts.count != 3 || !parts[2].hasPrefix("HTTP/1.") {
            return .error(status: 400, reason: "Bad Request", body: "the request line is not METHOD PATH HTTP/1.x\n")
        } else if path != "/metrics" {
            return .error(status: 404, reason: "Not Found", body: "only /metrics is served here\n")
        } else if parts[0] != "GET" && parts[0] != "HEAD" {
            return .error(status: 405, reason: "Method Not Allowed", body: "/metrics answers GET\n", extraHeaders: "Allow: GET, HEAD\r\n")
        }
        return .metrics(withBody: parts[0] == "GET")
    }

    /// A whole reply, closing the connection after it.
    static func reply(
        _ status: Int, _ reason: String, _ body: String, contentType: String = "text/plain; charset=utf-8",
        extraHeaders: String = "", withBody: Bool = true
    ) -> [UInt8] {
        let content = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\nContent-Length: \(content.count)\r\n"
            + "Server: edge-gateway\r\nConnection: close\r\n\(extraHeaders)\r\n"
        return Array(head.utf8) + (withBody ? content : [])
    }
}
