import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Reads notification payloads from an `AcquireNotify` socket (`SOCK_SEQPACKET`: one packet
/// per notification) and yields each as a frame, until the peer closes it or it is cancelled.
enum NotificationSocketReader {
    /// Cancels a reader: stops reading and closes the socket, which bluetoothd sees as the end of
    /// the notification session. Thread-safe and idempotent, like the dispatch source it wraps.
    struct Handle: @unchecked Sendable {
        fileprivate let source: DispatchSourceRead
        func cancel() { source.cancel() }
    }

    private static let queue = DispatchQueue(label: "edge-gateway.notify-sockets")

    /// Starts reading `socket`, taking ownership of it (it is closed when reading ends).
    static func start(socket: Int32, maximumLength: Int) -> (frames: AsyncStream<[UInt8]>, handle: Handle) {
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        let (frames, continuation) = AsyncStream<[UInt8]>.makeStream()
        let source = DispatchSource.makeReadSource(fileDescriptor: socket, queue: queue)
        let handle = Handle(source: source)
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: maximumLength)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count > 0 {
                    continuation.yield(Array(buffer.prefix(count)))
                } else if count < 0 && errno == EINTR {
                    continue
                } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    return
                } else {
                    handle.cancel()
                    return
                }
            }
        }
        source.setCancelHandler {
            close(socket)
            continuation.finish()
        }
        continuation.onTermination = { _ in handle.cancel() }
        source.resume()
        return (frames, handle)
    }
}
