import CLinux
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Synchronization

extension UUID {
    /// A version-4 (random) UUID from the kernel's randomness, drawn from a pool that one
    /// `getrandom` call refills for 256 of them: every sample gets an id on the notification
    /// path, and Foundation's `UUID()` opens `/dev/urandom` for each one on Linux.
    static func random() -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { buffer in
            randomPool.withLock { $0.take(into: buffer) }
            buffer[6] = buffer[6] & 0x0F | 0x40
            buffer[8] = buffer[8] & 0x3F | 0x80
        }
        return UUID(uuid: bytes)
    }
}

private let randomPool = Mutex(RandomPool())

/// Kernel randomness fetched 4 KiB at a time; each byte is handed out once.
private struct RandomPool: ~Copyable {
    private var bytes = [UInt8](repeating: 0, count: 4096)
    private var next = 4096

    /// Fills `buffer` from the pool, refilling it first when it runs short.
    mutating func take(into buffer: UnsafeMutableRawBufferPointer) {
        if next + buffer.count > bytes.count { refill() }
        let range = next ..< next + buffer.count
        bytes.withUnsafeBytes { pool in buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: pool[range])) }
        next = range.upperBound
    }

    /// `getrandom` until the pool is full; should the kernel refuse (no such call under some
    /// sandbox), the standard library's generator fills the rest.
    private mutating func refill() {
        bytes.withUnsafeMutableBytes { buffer in
            var filled = 0
            while filled < buffer.count {
                let count = getrandom(buffer.baseAddress! + filled, buffer.count - filled, 0)
                if count > 0 { filled += count } else if errno != EINTR { break }
            }
            var generator = SystemRandomNumberGenerator()
            for index in filled ..< buffer.count { buffer[index] = generator.next() }
        }
        next = 0
    }
}
