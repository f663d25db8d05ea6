import CLinux
import DBus
import Glibc

/// Reads notification payloads from an `AcquireNotify` socket (`SOCK_SEQPACKET`: one packet
/// per notification) until the peer closes it or it is cancelled.
///
/// With a handler (the daemon's frame receiver), the socket joins the client's
/// `NotificationSockets`, which the intake gathers before each commit: a notification then
/// wakes no thread. The bus connection's thread looks at the socket once per gather interval,
/// for its end; it wakes the gatherer when packets come to quiet sockets, and reads the sockets
/// itself if they have gone ungathered for two intervals (at once while nobody gathers them).
///
/// Without one (or where the kernel cannot stamp arrivals), the socket is read on the bus
/// connection's thread as packets come, and each is handed on (or yielded as a frame) at once.
enum NotificationSocketReader {
    /// Starts reading `socket`, taking ownership of it (it is closed when reading ends, which
    /// bluetoothd sees as the end of the notification session). Cancelling the returned
    /// subscription, or dropping the frames stream, ends it. With a `handler`, frames go to it
    /// and the stream only ends.
    static func start(
        socket: Int32, maximumLength: Int, on connection: DBusConnection, sockets: NotificationSockets,
        handler: GattCharacteristic.NotificationHandler?
    ) async -> (frames: AsyncStream<[UInt8]>, handle: DBusSubscription) {
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        let (frames, continuation) = AsyncStream<[UInt8]>.makeStream()
        let handle: DBusSubscription
        if let handler, clinux_stamp_arrivals(socket) == 0 {
            sockets.add(socket, maximumLength: maximumLength, deliver: handler)
            handle = await connection.watch(
                readable: socket, rest: { sockets.cadence },
                {
                    if sockets.shouldReadOnBusThread() { _ = sockets.gather() }
                    return !sockets.hasEnded(socket) && !hungUp(socket)
                },
                ended: {
                    sockets.end(socket)
                    continuation.finish()
                })
        } else {
            let deliver: @Sendable ([UInt8]) -> Void
            if let handler {
                deliver = { handler($0, 0) }
            } else {
                deliver = { continuation.yield($0) }
            }
            let buffer = ReceiveBuffer(count: maximumLength)
            handle = await connection.watch(
                readable: socket,
                {
                    while true {
                        let count = buffer.bytes.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                        if count > 0 {
                            deliver(Array(buffer.bytes[..<count]))
                        } else if count < 0 && errno == EINTR {
                            continue
                        } else {
                            return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
                        }
                    }
                },
                ended: {
                    close(socket)
                    continuation.finish()
                })
        }
        continuation.onTermination = { _ in handle.cancel() }
        return (frames, handle)
    }

    /// Whether the peer has closed `socket` (its data may still be there to read).
    private static func hungUp(_ socket: Int32) -> Bool {
        var entry = pollfd(fd: socket, events: 0, revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }
}

/// The one buffer a socket read as packets come is read into, made when reading starts rather
/// than on every wake. Only the connection's thread, which runs the socket's watch, touches it.
private final class ReceiveBuffer: @unchecked Sendable {
    var bytes: [UInt8]

    init(count: Int) {
        bytes = [UInt8](repeating: 0, count: count)
    }
}
