@testable import ConsoleSecurity
import GatewayTestSupport
import Glibc
import Testing

/// The console's certificate: made once and kept (so its fingerprint stays what the technician
/// checked), the key private, an operator's pair checked, and a TLS connection carried through
/// memory to a real client.
@Suite("Console TLS identity")
struct TLSIdentityTests {
    @Test("made on first use, self-signed for the names given, key 0600; loaded again with the same fingerprint")
    func madeOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let made = try TLSIdentity.load(certificate: nil, key: nil, stateDirectory: directory.path, names: ["192.0.2.7", "clinic-gw"])
        #expect(made.fingerprint.count == 32 * 3 - 1 && made.fingerprint.split(separator: ":").allSatisfy { $0.count == 2 })
        var status = stat()
        #expect(stat(directory.file(TLSIdentity.keyFile), &status) == 0 && status.st_mode & 0o777 == 0o600)
        let again = try TLSIdentity.load(certificate: nil, key: nil, stateDirectory: directory.path, names: ["other"])
        #expect(again.fingerprint == made.fingerprint)
        #expect(TLSIdentity.fingerprint(ofCertificateAt: directory.file(TLSIdentity.certificateFile)) == made.fingerprint)
        let text = try await GatewayProcess.run(
            ["x509", "-in", directory.file(TLSIdentity.certificateFile), "-noout", "-text"], executable: "/usr/bin/openssl"
        ).standardOutput
        #expect(text.contains("IP Address:192.0.2.7") && text.contains("DNS:clinic-gw") && text.contains("edge-gateway console"))
    }

    @Test("an operator's certificate with another key is refused, naming both files")
    func mismatchedPair() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        defer {
            first.remove()
            second.remove()
        }
        _ = try TLSIdentity.load(certificate: nil, key: nil, stateDirectory: first.path, names: ["a"])
        _ = try TLSIdentity.load(certificate: nil, key: nil, stateDirectory: second.path, names: ["b"])
        let certificate = first.file(TLSIdentity.certificateFile)
        let key = second.file(TLSIdentity.keyFile)
        #expect {
            try TLSIdentity.load(certificate: certificate, key: key, stateDirectory: first.path, names: [])
        } throws: { error in
            (error as? ConsoleSecurityError)?.code == .tlsIdentity && "\(error)".contains(key) && "\(error)".contains(certificate)
        }
        #expect {
            try TLSIdentity.load(certificate: key, key: key, stateDirectory: first.path, names: [])
        } throws: { error in
            "\(error)".contains("holds no PEM certificate")
        }
    }
}
