/// A reply of the box's own HTTP servers: a whole body, or a stream of server-sent events that
/// lasts as long as the client stays. Every reply closes its connection (`Connection: close`):
/// the clients are a scraper every few seconds and a handful of browsers.
struct HTTPReply: Sendable {
    var status: Int
    var reason: String
    /// Fields besides those the server adds (`Content-Length`, `Server`, `Connection`).
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// Set for `text/event-stream`: each event is sent as the feed hands it over; the feed is
    /// stopped when the client goes.
    var events: EventFeed?

    /// A whole reply.
    init(status: Int, reason: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// A plain-text reply.
    static func text(_ status: Int, _ reason: String, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPReply {
        HTTPReply(status: status, reason: reason, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array(text.utf8))
    }

    /// A stream of server-sent events.
    static func eventStream(_ events: EventFeed, headers: [(name: String, value: String)] = []) -> HTTPReply {
        var reply = HTTPReply(
            status: 200, reason: "OK", headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")] + headers)
        reply.events = events
        return reply
    }

    /// The status line and the header fields.
    func head() -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        for field in headers { text += "\(field.name): \(field.value)\r\n" }
        if events == nil { text += "Content-Length: \(body.count)\r\n" }
        text += "Server: edge-gateway\r\nConnection: close\r\n\r\n"
        return Array(text.utf8)
    }
}
