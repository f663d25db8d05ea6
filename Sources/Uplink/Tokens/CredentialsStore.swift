#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where credentials live. The file store is the real one; tests wrap it to fail a write at
/// the worst moment (a crash between the server's token reply and the write).
public protocol CredentialsPersistence: Sendable {
    /// The stored credentials, or `nil` when the gateway was never enrolled.
    func load() throws(UplinkError) -> Credentials?
    /// Replaces the stored credentials durably; when it returns, a power cut cannot lose them.
    func save(_ credentials: Credentials) throws(UplinkError)
}

/// `credentials.json` in the state directory, mode 0600, replaced atomically: write a temporary
/// file, fsync it, rename it over the old one, fsync the directory.
public struct CredentialsFileStore: CredentialsPersistence {
    /// The state directory.
    public let directory: String
    /// `<directory>/credentials.json`.
    public var path: String { directory + "/credentials.json" }

    /// A store in `directory` (created 0700 on first save if missing).
    public init(directory: String) {
        self.directory = directory
    }

    public func load() throws(UplinkError) -> Credentials? {
        guard let data = FileManager.default.contents(atPath: path) else {
            guard access(path, F_OK) != 0 else {
                throw UplinkError(.credentialsUnreadable, "cannot read \(path) (\(String(cString: strerror(errno)))); check its owner and mode")
            }
            return nil
        }
        do {
            return try JSONDecoder().decode(Credentials.self, from: data)
        } catch {
            throw UplinkError(.credentialsUnreadable, "\(path) is not a valid credentials file; run `edge-gateway enroll` again to replace it")
        }
    }

    public func save(_ credentials: Credentials) throws(UplinkError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(credentials) else {
            throw UplinkError(.credentialsWriteFailed, "could not encode credentials for \(path)")
        }
        mkdir(directory, 0o700)
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("create \(temporary)") }
        fchmod(descriptor, 0o600)
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count, fsync(descriptor) == 0 else {
            let error = failure("write \(temporary)")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failure("rename \(temporary) to \(path)")
            unlink(temporary)
            throw error
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else { throw failure("open \(directory) to fsync it") }
        defer { close(directoryDescriptor) }
        guard fsync(directoryDescriptor) == 0 else { throw failure("fsync \(directory)") }
    }

    private func failure(_ what: String) -> UplinkError {
        UplinkError(.credentialsWriteFailed, "could not \(what): \(String(cString: strerror(errno))); check free space and permissions of the state directory")
    }
}
