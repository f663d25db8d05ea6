import Foundation
import Glibc
import Synchronization

/// A hostile (or merely odd) HTTP server on loopback, written on raw sockets so that it can do
/// what a well-behaved server library will not: trickle a body one byte at a time, or redirect
/// a request with credentials to another origin. It counts the connections it accepts.
final class HostileHTTPServer: Sendable {
    /// What the server answers to every request.
    enum Behaviour: Sendable {
        /// A response head at once, then the body one byte every `interval`.
        case trickle(interval: TimeInterval, bodyBytes: Int)
        /// `307 Temporary Redirect` to `location` (which keeps the method and body).
        case redirect(to: String)
        /// `200` with a small JSON body: the origin a redirect points at.
        case answer
        /// `200` with a small JSON body to each request, keeping the connection open for more.
        case answerKeepingAlive
        /// To the first request on each connection, `200` whose body is `<length>/<byte sum>` of
        /// the request body it read, keeping the connection open; a second request on it is
        /// read whole and the connection closed unanswered, as a server's idle timeout can.
        case closingReusedConnections
        /// A forward proxy wanting `Proxy-Authorization: Basic base64(credentials)`: `407`
        /// without it; with it, `200` to a request for an http URL and `403` to a CONNECT.
        case proxy(credentials: String)
    }

    /// The loopback address it listens on.
    let host = "127.0.0.1"
    let port: UInt16
    private let listener: Int32
    private let behaviour: Behaviour
    private let accepted = Mutex(0)
    /// Whether the listening socket is still open. Only the accept thread closes it, under this
    /// lock, and `stop` only shuts it down (which ends the accept), under the same lock. Had
    /// `stop` closed it, another test's server could get the same descriptor from the kernel
    /// while this server's accept thread, not yet started or between two accepts, went on to
    /// accept on it: that test's connections answered by this server, and never counted by its own.
    private let listening = Mutex(true)
    /// Connections still open, so `stop` can end them: a kept-alive connection outliving its
    /// server would answer a later test whose server got the same port from the kernel
    /// (libcurl's connection cache is shared by the whole process).
    private let open = Mutex(Set<Int32>())
    private let heads = Mutex([[UInt8]]())

    init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress -> Bool in
                bind(listener, socketAddress, length) == 0 && listen(listener, 8) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// `http://<host>:<port>`.
    var baseURL: String { "http://\(host):\(port)" }

    /// Connections accepted so far.
    var connections: Int { accepted.withLock { $0 } }

    /// The first bytes each connection sent (a request head, or a TLS ClientHello), in order.
    var received: [[UInt8]] { heads.withLock { $0 } }

    /// Stops accepting and ends the connections still open.
    func stop() {
        listening.withLock { isOpen in
            if isOpen { shutdown(listener, Int32(SHUT_RDWR)) }
        }
        open.withLock { connections in
            for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        defer {
            listening.withLock { isOpen in
                close(listener)
                isOpen = false
            }
        }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            accepted.withLock { $0 += 1 }
            open.withLock { _ = $0.insert(connection) }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        defer {
            open.withLock { _ = $0.remove(connection) }
            close(connection)
        }
        var request = [UInt8](repeating: 0, count: 65_536)
        let count = read(connection, &request, request.count)
        heads.withLock { $0.append(Array(request.prefix(max(count, 0)))) }
        switch behaviour {
        case .trickle(let interval, let bodyBytes):
            guard send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(bodyBytes)\r\n\r\n", to: connection) else { return }
            for _ in 0 ..< bodyBytes {
                Thread.sleep(forTimeInterval: interval)
                guard send(" ", to: connection) else { return }
            }
        case .redirect(let location):
            _ = send("HTTP/1.1 307 Temporary Redirect\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", to: connection)
        case .answer:
            _ = send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}", to: connection)
        case .proxy(let credentials):
            let head = String(decoding: request.prefix(max(count, 0)), as: UTF8.self)
            let expected = "Proxy-Authorization: Basic " + Data(credentials.utf8).base64EncodedString()
            if !head.split(separator: "\r\n").contains(where: { $0.caseInsensitiveCompare(expected) == .orderedSame }) {
                _ = send(
                    "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    to: connection)
            } else if head.hasPrefix("CONNECT ") {
                _ = send("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", to: connection)
            } else {
                _ = send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}", to: connection)
            }
        case .closingReusedConnections:
            guard let body = readBody(after: Array(request.prefix(max(count, 0))), from: connection) else { return }
            let text = "\(body.count)/\(body.reduce(0) { $0 + Int($1) })"
            guard send("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(text.utf8.count)\r\n\r\n" + text, to: connection),
                let next = recv(connection)
            else { return }
            _ = readBody(after: next, from: connection)
        case .answerKeepingAlive:
            repeat {
                guard send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", to: connection) else { return }
            } while read(connection, &request, request.count) > 0
        }
    }

    /// The body of the request whose first bytes are `start`, read to its `Content-Length`.
    private func readBody(after start: [UInt8], from connection: Int32) -> [UInt8]? {
        var bytes = start
        while true {
            if let end = bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
                let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                while bytes.count - end < length {
                    guard let more = recv(connection) else { return nil }
                    bytes += more
                }
                return Array(bytes[end ..< end + length])
            }
            guard let more = recv(connection) else { return nil }
            bytes += more
        }
    }

    /// The next bytes the connection sends; nil at its end.
    private func recv(_ connection: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(connection, &buffer, buffer.count)
        return count > 0 ? Array(buffer.prefix(count)) : nil
    }

    private func send(_ text: String, to connection: Int32) -> Bool {
        Glibc.send(connection, text, text.utf8.count, Int32(MSG_NOSIGNAL)) == text.utf8.count
    }
}
