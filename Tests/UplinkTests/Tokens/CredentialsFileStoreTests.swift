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
}
