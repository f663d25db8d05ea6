import DurableFile
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where credentials live. The file store is the real one; tests wrap it to fail a write at
/// the worst moment (a crash between the server's token reply and the write).
package protocol CredentialsPersistence: Sendable {
    /// The stored credentials, or `nil` when the gateway was never enrolled.
    func load() throws(UplinkError) -> Credentials?
    /// Replaces the stored credentials durably; when it returns, a power cut cannot lose them.
    func save(_ credentials: Credentials) throws(UplinkError)
}

/// `credentials.json` in the state directory, mode 0600, replaced atomically: write a temporary
/// file, fsync it, rename it over the old one, fsync the directory.
package struct CredentialsFileStore: CredentialsPersistence {
    /// The state directory.
    package let directory: String
    /// `<directory>/credentials.json`.
    package var path: String { directory + "/credentials.json" }

    /// A store in `directory` (created 0700 on first save if missing).
    package init(directory: String) {
        self.directory = directory
    }

    /// Reads `credentials.json`: `nil` when there is no file; `credentialsUnreadable` when it
    /// cannot be read or decoded (the operator re-runs `enroll`).
    package func load() throws(UplinkError) -> Credentials? {
        guard let data = FileManager.default.contents(atPath: path) else {
            guard access(path, F_OK) != 0 else {
                throw UplinkError(.credentialsUnreadable, "cannot read \(path) (\(String(cString: strerror(errno)))); check its owner and mode")
            }
            return nil
        }
        do {
            return try JSONDecoder().decode(Credentials.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.last?.stringValue == "baseURL" {
            throw UplinkError(
                .credentialsUnreadable,
                "\(path) names a server the gateway may not use: \(context.debugDescription); run `edge-gateway enroll` again to replace it")
        } catch {
            throw UplinkError(.credentialsUnreadable, "\(path) is not a valid credentials file; run `edge-gateway enroll` again to replace it")
        }
    }

    /// Writes `credentials.json` through `DurableFile` (0600 in a 0700 directory); on
    /// `credentialsWriteFailed` the previous file is left as it was.
    package func save(_ credentials: Credentials) throws(UplinkError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(credentials) else {
            throw UplinkError(.credentialsWriteFailed, "could not encode credentials for \(path)")
        }
        do {
            try DurableFile.replace(path, with: data)
        } catch {
            throw UplinkError(.credentialsWriteFailed, "\(error); check free space and permissions of the state directory")
        }
    }
}
