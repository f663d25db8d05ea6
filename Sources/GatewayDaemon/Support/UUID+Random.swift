import CLinux
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

extension UUID {
    /// A version-4 (random) UUID from one `getrandom` call. Foundation's `UUID()` opens
    /// `/dev/urandom` for each one on Linux, a file open per heart beat on the notification path.
    static func random() -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { buffer in
            var filled = 0
            while filled < buffer.count {
                let count = getrandom(buffer.baseAddress! + filled, buffer.count - filled, 0)
                if count > 0 { filled += count } else if errno != EINTR { break }
            }
            if filled < buffer.count {
                var generator = SystemRandomNumberGenerator()
                for index in filled ..< buffer.count { buffer[index] = generator.next() }
            }
            buffer[6] = buffer[6] & 0x0F | 0x40
            buffer[8] = buffer[8] & 0x3F | 0x80
        }
        return UUID(uuid: bytes)
    }
}
