import Foundation
import Testing
@testable import Uplink

@Suite("Uplink credentials file")
struct CredentialsFileStoreTests {
    let credentials = Credentials(
        kind: .patient, server: try! ServerAddress(baseURL: "https://jhe.example.org"), clientID: "client",
        accessToken: "ACCESS-SECRET", refreshToken: "REFRESH-SECRET", clientKey: nil, expiresAt: 1_800_000_000,
        patientID: "40006", deviceID: "70007")

    @Test("written 0600 in a 0700 directory it creates, atomically (no temp file left), read back equal")
    func roundTrip() throws {
        let directory = try SchemaValidator.scratchDirectory().appendingPathComponent("state")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store = CredentialsFileStore(directory: directory.path)
        #expect(try store.load() == nil)
        try store.save(credentials)
        var changed = credentials
        changed.accessToken = "NEW"
        try store.save(changed)
        #expect(try store.load() == changed)
        let file = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["credentials.json"])
    }

    @Test("a corrupt file gives a typed error naming the file, and the description hides secrets")
    func corrupt() throws {
        let directory = try SchemaValidator.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = CredentialsFileStore(directory: directory.path)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: store.path))
        #expect { try store.load() } throws: {
            ($0 as? UplinkError)?.code == .credentialsUnreadable && "\($0)".contains(store.path)
        }
        #expect(!credentials.description.contains("SECRET"))
    }

    @Test("a credentials file edited to send tokens over plain http to a remote host is refused when read back, naming why")
    func plainHTTPServerInTheFileIsRefused() throws {
        let directory = try SchemaValidator.scratchDirectory().appendingPathComponent("state")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store = CredentialsFileStore(directory: directory.path)
        try store.save(credentials)
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(text.contains("https:\\/\\/jhe.example.org") || text.contains("https://jhe.example.org"))
        let edited = text.replacingOccurrences(of: "https:\\/\\/jhe.example.org", with: "http:\\/\\/jhe.example.org")
            .replacingOccurrences(of: "https://jhe.example.org", with: "http://jhe.example.org")
        try edited.write(toFile: store.path, atomically: true, encoding: .utf8)
        let error = #expect(throws: UplinkError.self) { try store.load() }
        #expect(error?.code == .credentialsUnreadable)
        #expect(error?.message.contains("plain http:// to a non-loopback host") == true)
        #expect(error.map { "\($0)" }?.contains("SECRET") == false)
    }
}
