import Glibc

/// A plain blocking TCP connection to `port` on the loopback address `host`, for tests that
/// speak to a server byte by byte; the caller closes it. Throws when nothing accepts.
package func loopbackConnection(to port: UInt16, host: String = "127.0.0.1") throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr(host)
    address.sin_port = port.bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(descriptor)
        throw LoopbackConnectionRefused(host: host, port: port)
    }
    return descriptor
}

/// Nothing accepted a `loopbackConnection`.
package struct LoopbackConnectionRefused: Error, CustomStringConvertible {
    let host: String
    let port: UInt16
    /// Which address refused, for the test log.
    package var description: String { "nothing accepts connections on \(host):\(port)" }
}
