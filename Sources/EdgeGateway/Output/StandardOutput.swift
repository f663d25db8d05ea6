#if canImport(Glibc)
import Glibc
#endif

/// Writes whole lines straight to file descriptor 1, unbuffered, so a command fed from a live
/// pipe (`btmon | … | edge-gateway decode -`) shows each result as soon as it exists.
enum StandardOutput {
    /// Writes `line` and a newline; a closed pipe ends the writes quietly.
    static func writeLine(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if result > 0 {
                written += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
