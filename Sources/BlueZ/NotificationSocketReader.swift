import DBus
import Glibc

/// Reads notification payloads from an `AcquireNotify` socket (`SOCK_SEQPACKET`: one packet
/// per notification) and hands each to a handler or yields it as a frame, until the peer
/// closes it or it is cancelled. The socket is polled on the bus connection's own thread, so a
/// notification wakes that one thread (and then the stream's consumer, if there is no handler).
enum NotificationSocketReader {
    /// Starts reading `socket`, taking ownership of it (it is closed when reading ends, which
    /// bluetoothd sees as the end of the notification session). Cancelling the returned
    /// subscription, or dropping the frames stream, ends it. With a `handler`, frames go to it
    /// on the connection's thread and the stream only ends.
    static func start(
        socket: Int32, maximumLength: Int, on connection: DBusConnection, handler: (@Sendable ([UInt8]) -> Void)?
    ) async -> (frames: AsyncStream<[UInt8]>, handle: DBusSubscription) {
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        let (frames, continuation) = AsyncStream<[UInt8]>.makeStream()
        let deliver = handler ?? { continuation.yield($0) }
        let buffer = ReceiveBuffer(count: maximumLength)
        let handle = await connection.watch(
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
        continuation.onTermination = { _ in handle.cancel() }
        return (frames, handle)
    }
}

/// The one buffer a notification socket is read into, made when reading starts rather than on
/// every wake. Only the connection's thread, which runs the socket's watch, touches it.
private final class ReceiveBuffer: @unchecked Sendable {
    var bytes: [UInt8]

    init(count: Int) {
        bytes = [UInt8](repeating: 0, count: count)
    }
}
