import Foundation
import GatewayTestSupport

/// A throw-away CA and a server certificate for 127.0.0.1 signed by it, made with openssl.
struct TestCertificates {
    let directory: URL
    var caPath: String { directory.appendingPathComponent("ca.pem").path }
    var serverCertificatePath: String { directory.appendingPathComponent("server.pem").path }
    var serverKeyPath: String { directory.appendingPathComponent("server.key").path }

    struct OpenSSLFailed: Error, CustomStringConvertible {
        let arguments: [String]
        var description: String { "openssl \(arguments.joined(separator: " ")) failed (openssl is needed for TLS tests)" }
    }

    init(in directory: URL) async throws {
        self.directory = directory
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: URL(fileURLWithPath: path("ext.cnf")))
        try await Self.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=edge-gateway test CA",
            "-keyout", path("ca.key"), "-out", path("ca.pem"),
        ])
        try await Self.openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", path("server.key"), "-out", path("server.csr"),
        ])
        try await Self.openssl([
            "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
            "-CAcreateserial", "-days", "2", "-extfile", path("ext.cnf"), "-out", path("server.pem"),
        ])
    }

    static func openssl(_ arguments: [String]) async throws {
        guard (try? await GatewayProcess.run(arguments, executable: "openssl"))?.status == 0 else {
            throw OpenSSLFailed(arguments: arguments)
        }
    }
}
