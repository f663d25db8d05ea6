import Foundation
import Glibc

/// A bound `AF_UNIX` datagram socket standing in for systemd's notification socket: at a path,
/// or in the abstract namespace when the name starts with `@`.
package final class DatagramReceiver: Sendable {
    /// The socket's name, as `NOTIFY_SOCKET` gives it.
    package let name: String
    private let descriptor: Int32

    /// A socket call failed (with its errno).
    package struct Failure: Error, CustomStringConvertible {
        /// The failing call and its error (`bind @name: Address already in use`).
        package let description: String
    }

    /// Binds the socket `name` (a path, or `@abstract`).
    package init(name: String) throws {
        self.name = name
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (bytes.first == 0 ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw Failure(description: "bind \(name): \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram as text (waits up to 30 s, on a thread of its own).
    package func receive() async throws -> String {
        try await offThePool { try self.receiveBlocking() }
    }

    private func receiveBlocking() throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count >= 0 else { throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    deinit {
        close(descriptor)
    }
}
