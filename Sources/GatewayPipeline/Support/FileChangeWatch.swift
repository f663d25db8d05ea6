import Dispatch
import Glibc

/// Raises a `ChangeSignal` when one of some named files in a directory is written, replaced or
/// removed: inotify, read from a Dispatch source, so nothing polls and nothing wakes while the
/// files stay as they are. The gateway's commands replace state files by rename, which inotify
/// reports as `IN_MOVED_TO`.
///
/// `@unchecked Sendable`: its one stored property, a Dispatch source, is safe to cancel from
/// any thread, but Dispatch does not say so in its types.
final class FileChangeWatch: @unchecked Sendable {
    private let source: any DispatchSourceRead

    /// Starts watching `names` in `directory`; nil when inotify cannot (no instances left, the
    /// directory is missing): the caller falls back to looking now and then.
    init?(directory: String, names: Set<String>, signal: ChangeSignal) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "edge-gateway.file-change-watch"))
        source.setEventHandler {
            if Self.drain(descriptor).contains(where: names.contains) { signal.raise() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    /// Stops watching and closes the inotify descriptor.
    func cancel() {
        source.cancel()
    }

    /// Reads every pending event and returns the file names they name.
    private static func drain(_ descriptor: Int32) -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let header = MemoryLayout<inotify_event>.size
        let lengthOffset = MemoryLayout<inotify_event>.offset(of: \.len)!
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return names }
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
