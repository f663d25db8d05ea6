import Glibc

/// Writes whole lines straight to file descriptor 1, unbuffered, so a command fed from a live
/// pipe (`btmon | … | edge-gateway decode -`) shows each result as soon as it exists.
package enum StandardOutput {
    /// Writes `line` and a newline; a closed pipe ends the writes quietly.
    package static func writeLine(_ line: String) {
        writeLine(line, to: 1)
    }

    /// Writes `line` and a newline to `descriptor`.
    static func writeLine(_ line: String, to descriptor: Int32) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
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

/// Messages for the operator, on file descriptor 2.
package enum StandardError {
    /// Writes `line` and a newline to standard error.
    package static func writeLine(_ line: String) {
        StandardOutput.writeLine(line, to: 2)
    }
}
