import Dispatch
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One scrape: read one HTTP/1.1 request head from a connection, answer it, close. The request
/// is hostile until checked (at most 8 KiB, within 5 s per read); anything but `GET /metrics`
/// gets a short error reply.
struct MetricsExchange {
    /// The accepted connection, closed when served.
    let connection: Int32
    let logger: Logger
    private static let maximumHeadBytes = 8192

    /// Serves the connection on the calling thread (the server's Dispatch queue), rendering
    /// the text with `render` on Swift's pool while this thread waits.
    func serve(_ render: @escaping @Sendable () async -> String) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let requestLine = readRequestLine() else {
            reply(400, "Bad Request", "the request was not an HTTP/1.1 request head of at most 8 KiB\n")
            return
        }
        let parts = requestLine.split(separator: " ")
        let path = parts.count == 3 ? parts[1].prefix { $0 != "?" } : ""
        if parts.count != 3 || !parts[2].hasPrefix("HTTP/1.") {
            reply(400, "Bad Request", "the request line is not METHOD PATH HTTP/1.x\n")
        } else if path != "/metrics" {
            reply(404, "Not Found", "only /metrics is served here\n")
        } else if parts[0] != "GET" && parts[0] != "HEAD" {
            reply(405, "Method Not Allowed", "/metrics answers GET\n", extraHeaders: "Allow: GET, HEAD\r\n")
        } else {
            reply(200, "OK", Self.wait(for: render), contentType: PrometheusMetrics.contentType, withBody: parts[0] == "GET")
        }
    }

    /// The request line, once the whole head (up to the blank line) has arrived; nil when the
    /// client sent something else, too much, or stopped.
    private func readRequestLine() -> Substring? {
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while head.count < Self.maximumHeadBytes {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            head += chunk[..<count]
            if let blank = head.firstRange(of: end) {
                let text = String(decoding: head[..<blank.lowerBound], as: UTF8.self)
                return text.split(separator: "\r\n", maxSplits: 1).first
            }
        }
        return nil
    }

    private func reply(
        _ status: Int, _ reason: String, _ body: String, contentType: String = "text/plain; charset=utf-8",
        extraHeaders: String = "", withBody: Bool = true
    ) {
        let content = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\nContent-Length: \(content.count)\r\n"
            + "Server: edge-gateway\r\nConnection: close\r\n\(extraHeaders)\r\n"
        var bytes = Array(head.utf8)
        if withBody { bytes += content }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else {
                logger.debug("a metrics client went away before its reply was sent", metadata: ["errno": "\(errno)"])
                return
            }
            sent += count
        }
    }

    /// Runs `render` as a task and blocks this (non-pool) thread until it returns.
    private static func wait(for render: @escaping @Sendable () async -> String) -> String {
        let text = Mutex("")
        let done = DispatchSemaphore(value: 0)
        Task {
            let rendered = await render()
            text.withLock { $0 = rendered }
            done.signal()
        }
        done.wait()
        return text.withLock { $0 }
    }
}
