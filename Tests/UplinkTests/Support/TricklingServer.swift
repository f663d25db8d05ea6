import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A hostile HTTP server on loopback: it answers every connection with a response head at once
/// and then trickles the body one byte every `interval`, the way a slow or malicious server
/// (or proxy) can hold a client's request open without end.
final class TricklingServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let interval: TimeInterval
    private let bodyBytes: Int

    init(interval: TimeInterval = 0.5, bodyBytes: Int = 200) throws {
        self.interval = interval
        self.bodyBytes = bodyBytes
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
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

    /// `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops accepting; connections in progress end at their next write.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            Thread.detachNewThread { [self] in trickle(to: connection) }
        }
    }

    private func trickle(to connection: Int32) {
        defer { close(connection) }
        var request = [UInt8](repeating: 0, count: 65_536)
        _ = read(connection, &request, request.count)
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(bodyBytes)\r\n\r\n"
        guard write(connection, head, head.utf8.count) > 0 else { return }
        for _ in 0..<bodyBytes {
            Thread.sleep(forTimeInterval: interval)
            guard write(connection, " ", 1) == 1 else { return }
        }
    }
}
