import CLinux
import DBus
import Glibc

/// Reads notification payloads from an `AcquireNotify` socket (`SOCK_SEQPACKET`: one packet
/// per notification) and hands each to a handler or yields it as a frame, until the peer
/// closes it or it is cancelled. The socket is polled on the bus connection's own thread, so a
/// notification wakes that one thread (and then the stream's consumer, if there is no handler).
///
/// With a handler, reads are gathered: after a read the socket rests for `rest` (with every
/// other notification socket), and the packets that come meanwhile wait in the kernel, each
/// stamped with its arrival, for the next wake. At 10 notifications a second that is about four
/// wakes instead of ten, and each sample still carries the time its packet came; what one wake
/// reads from several sockets is handed on in arrival order (`NotificationArrivals`). A sample
/// reaches its commit up to a rest later (commits come once a second).
enum NotificationSocketReader {
    /// How long a read socket rests. bluetoothd drops a notification whose `sendmsg` finds the
    /// socket full (its end is non-blocking): its send buffer holds about 278 heart-rate packets
    /// (Linux's default `wmem_default`), 50 of which come in 250 ms at 200 a second.
    static let rest: Duration = .milliseconds(250)

    /// Starts reading `socket`, taking ownership of it (it is closed when reading ends, which
    /// bluetoothd sees as the end of the notification session). Cancelling the returned
    /// subscription, or dropping the frames stream, ends it. With a `handler`, frames go to it
    /// on the connection's thread, through `arrivals` in the order they came, and the stream
    /// only ends.
    static func start(
        socket: Int32, maximumLength: Int, on connection: DBusConnection, arrivals: NotificationArrivals,
        handler: GattCharacteristic.NotificationHandler?
    ) async -> (frames: AsyncStream<[UInt8]>, handle: DBusSubscription) {
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        let (frames, continuation) = AsyncStream<[UInt8]>.makeStream()
        let gathered = handler != nil && clinux_stamp_arrivals(socket) == 0
        let deliver: @Sendable (_ value: [UInt8], _ arrived: Int64) -> Void
        if let handler, gathered {
            deliver = { value, arrived in arrivals.add(value, arrived: arrived, to: handler) }
        } else if let handler {
            deliver = { value, _ in handler(value, 0) }
        } else {
            deliver = { value, _ in continuation.yield(value) }
        }
        let settle: (@Sendable () -> Void)? = gathered ? { @Sendable in arrivals.settle() } : nil
        let buffer = ReceiveBuffer(count: maximumLength)
        let handle = await connection.watch(
            readable: socket, rest: gathered ? rest : nil,
            {
                while true {
                    var arrived: Int64 = 0
                    let count = buffer.bytes.withUnsafeMutableBytes {
                        clinux_receive_stamped(socket, $0.baseAddress, $0.count, &arrived)
                    }
                    if count > 0 {
                        deliver(Array(buffer.bytes[..<count]), arrived)
                    } else if count < 0 && errno == EINTR {
                        continue
                    } else {
                        return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
                    }
                }
            },
            settle: settle,
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
