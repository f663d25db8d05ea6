import Glibc
import OutputFormats

/// `sd_notify(3)` without libsystemd: state changes sent as datagrams to the `AF_UNIX` socket in
/// `NOTIFY_SOCKET`, so a `Type=notify` unit knows when the daemon is ready, what it is doing,
/// that it is alive (`WATCHDOG=1`), and that it is stopping.
///
/// The protocol is one `SOCK_DGRAM` datagram of newline-separated `KEY=value` assignments; a
/// socket name starting with `@` is in the abstract namespace (a leading NUL byte instead).
struct SystemdNotifier: Sendable {
    /// The socket, as given in `NOTIFY_SOCKET`.
    let socketName: String
    /// How often systemd expects `WATCHDOG=1` (`WATCHDOG_USEC`), or nil when the watchdog is
    /// off or meant for another process (`WATCHDOG_PID`). Send at half this interval.
    let watchdogInterval: Duration?

    /// A notifier when the process runs under systemd with notification (`NOTIFY_SOCKET` set),
    /// else nil. `processID` is compared with `WATCHDOG_PID`.
    init?(environment: [String: String], processID: Int32 = getpid()) {
        guard let name = environment["NOTIFY_SOCKET"], name.hasPrefix("/") || name.hasPrefix("@"),
            name.utf8.count > 1, name.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        else { return nil }
        socketName = name
        let forUs = environment["WATCHDOG_PID"].map { Int32($0) == processID } ?? true
        if forUs, let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 {
            watchdogInterval = .microseconds(microseconds)
        } else {
            watchdogInterval = nil
        }
    }

    /// `READY=1`: start-up is complete (systemd then considers the unit started).
    func ready(status: String? = nil) throws(SystemdNotifyError) {
        try send(["READY=1"] + (status.map { ["STATUS=" + Self.oneLine($0)] } ?? []))
    }

    /// `STATUS=…`: a one-line summary shown by `systemctl status`.
    func status(_ text: String) throws(SystemdNotifyError) {
        try send(["STATUS=" + Self.oneLine(text)])
    }

    /// `WATCHDOG=1`: the daemon is alive.
    func watchdog() throws(SystemdNotifyError) {
        try send(["WATCHDOG=1"])
    }

    /// `STOPPING=1`: shutdown has begun.
    func stopping() throws(SystemdNotifyError) {
        try send(["STOPPING=1"])
    }

    /// Sends `assignments` as one datagram.
    func send(_ assignments: [String]) throws(SystemdNotifyError) {
        let payload = Array(assignments.joined(separator: "\n").utf8)
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw failure("create a datagram socket") }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var name = Array(socketName.utf8)
        if name.first == UInt8(ascii: "@") { name[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: name)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        // A path name is NUL-terminated (the zeroed struct supplies it); an abstract name is
        // exactly its bytes.
        let length = socklen_t(pathOffset + name.count + (name.first == 0 ? 0 : 1))
        let sent = payload.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        guard sent == payload.count else { throw failure("send to \(socketName)") }
    }

    /// Newlines end an assignment in the protocol: a status must not contain one.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    private func failure(_ operation: String) -> SystemdNotifyError {
        SystemdNotifyError(message: "cannot \(operation) (NOTIFY_SOCKET): \(String(cString: strerror(errno)))")
    }
}

/// A datagram could not be sent (systemd gone, socket path wrong).
struct SystemdNotifyError: CodedError {
    /// The one code.
    enum Code: String { case notifyFailed = "systemd.notify-failed" }

    /// Always `systemd.notify-failed`.
    let code = Code.notifyFailed
    /// What could not be done with the socket, and why.
    let message: String
}
