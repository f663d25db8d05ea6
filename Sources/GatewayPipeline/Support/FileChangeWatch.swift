import DBus
import Glibc

/// Raises a `ChangeSignal` when one of some named files in a directory is written, replaced or
/// removed: inotify, its descriptor polled on the bus connection's own thread
/// (`DBusConnection.watch(readable:rest:_:settle:ended:)`), so nothing polls and nothing wakes while the
/// directory stays as it is. The gateway's commands replace state files by rename, which
/// inotify reports as `IN_MOVED_TO`.
///
/// Other files of the directory change too (the upload history takes a line every upload
/// round): each such event costs one read on a thread that already runs. Read from a Dispatch
/// source instead, each one made libdispatch wake its manager thread and create a worker thread
/// that exited seconds later (docs/PERFORMANCE.md).
final class FileChangeWatch: Sendable {
    private let subscription: DBusSubscription

    private init(subscription: DBusSubscription) {
        self.subscription = subscription
    }

    /// Starts watching `names` in `directory` from `connection`'s thread; nil when inotify cannot
    /// (no instances left, the directory is missing): the caller falls back to looking now and
    /// then. The watch ends with the connection.
    static func start(directory: String, names: Set<String>, signal: ChangeSignal, on connection: DBusConnection) async -> FileChangeWatch? {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        let subscription = await connection.watch(
            readable: descriptor,
            {
                let (changed, open) = Self.drain(descriptor)
                if changed.contains(where: names.contains) { signal.raise() }
                return open
            },
            ended: { close(descriptor) })
        return FileChangeWatch(subscription: subscription)
    }

    /// Stops watching and closes the inotify descriptor.
    func cancel() {
        subscription.cancel()
    }

    /// Reads every pending event; returns the file names they name, and false if the descriptor
    /// failed (anything but "nothing more to read").
    private static func drain(_ descriptor: Int32) -> (names: [String], open: Bool) {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let header = MemoryLayout<inotify_event>.size
        let lengthOffset = MemoryLayout<inotify_event>.offset(of: \.len)!
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return (names, count < 0 && (errno == EAGAIN || errno == EINTR)) }
            var offset = 0
            while offset + header <= count {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + lengthOffset, as: UInt32.self)) }
                let end = min(offset + header + length, count)
                let name = buffer[(offset + header) ..< end].prefix { $0 != 0 }
                names.append(String(decoding: name, as: UTF8.self))
                offset += header + length
            }
        }
    }
}
