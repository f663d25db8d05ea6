import GatewayConfiguration
import Glibc
import OutputFormats

/// An HTTP server's listening socket: bound and listening at init, non-blocking (the Dispatch
/// source says when a connection waits), closed by `close`.
struct HTTPListener: Sendable {
    /// The listening socket.
    let descriptor: Int32
    /// The port bound, which the kernel chose when the address asked for 0.
    let port: Int

    /// Binds the first address `address.host` resolves to, for `role`'s server.
    init(_ address: ListenAddress, for role: HTTPServer.Role) throws(HTTPListenError) {
        let endpoint = "\(address.host.contains(":") ? "[\(address.host)]" : address.host):\(address.port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &found)
        guard status == 0, let first = found else {
            throw HTTPListenError(
                code: role.code,
                message: "cannot listen for \(role.name) on \(endpoint): the host does not resolve (\(String(cString: gai_strerror(status)))); fix \(role.key)")
        }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else {
            throw HTTPListenError(
                code: role.code,
                message: "cannot listen for \(role.name) on \(endpoint): \(String(cString: strerror(errno))); the process is out of descriptors")
        }
        var on: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socket, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0, listen(socket, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(socket)
            throw HTTPListenError(
                code: role.code,
                message:
                    "cannot listen for \(role.name) on \(endpoint): \(reason); another process may hold the port: choose another \(role.key), or stop that process"
            )
        }
        descriptor = socket
        port = Self.boundPort(socket)
    }

    /// The next waiting connection (blocking: Linux does not pass O_NONBLOCK on; close-on-exec),
    /// or nil when none waits.
    func accept() -> Int32? {
        let connection = Glibc.accept(descriptor, nil, nil)
        guard connection >= 0 else { return nil }
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        return connection
    }

    /// Stops listening.
    func close() {
        _ = Glibc.close(descriptor)
    }

    private static func boundPort(_ socket: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return withUnsafeBytes(of: &storage) { bytes in
            // sin_port and sin6_port sit at the same offset, in network byte order.
            Int(UInt16(bigEndian: bytes.load(fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_port)!, as: UInt16.self)))
        }
    }
}

/// A server could not listen where its `listen` key says.
struct HTTPListenError: CodedError, Sendable {
    /// One per server.
    enum Code: String, Sendable {
        case metricsListenFailed = "metrics.listen-failed"
        case consoleListenFailed = "web.listen-failed"
    }

    /// Which server's address failed.
    let code: Code
    /// What failed, on which address, and what to do.
    let message: String
}
