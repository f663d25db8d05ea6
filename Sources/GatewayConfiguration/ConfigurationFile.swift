import Glibc

/// Reads a configuration file's text, telling "there is no file" (fine for the default path:
/// all defaults) from "the file cannot be read" (always an error, with the system's reason).
package enum ConfigurationFile {
    /// The text at `path`; nil when it does not exist and `required` is false.
    package static func text(at path: String, required: Bool) throws(ConfigurationError) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            let reason = errno
            if reason == ENOENT && !required { return nil }
            if reason == ENOENT {
                throw ConfigurationError(
                    .missingFile, "\(path): no such configuration file; create it (every key is described in deploy/gateway.toml.example) or leave out --config"
                )
            }
            throw unreadable(path, reason)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable(path, errno)
            }
            bytes += buffer[..<count]
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(.unreadableFile, "\(path): cannot read the configuration file: it is not UTF-8 text")
        }
        return text
    }

    private static func unreadable(_ path: String, _ reason: Int32) -> ConfigurationError {
        ConfigurationError(.unreadableFile, "\(path): cannot read the configuration file: \(String(cString: strerror(reason)))")
    }
}
