import Foundation
import JHESimulator
import Testing
@testable import Uplink

/// HTTPS with verification always on: a private CA is trusted only through `ca_file`.
@Suite("Uplink TLS trust")
struct TLSTrustTests {
    @Test("over HTTPS, a server signed by a private CA is refused without ca_file and accepted with it")
    func privateCA() async throws {
        let directory = try SchemaValidator.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificates = try await TestCertificates(in: directory)
        let simulator = JHESimulator(
            tls: SimulatorTLS(
                certificateChainPath: certificates.serverCertificatePath, privateKeyPath: certificates.serverKeyPath))
        let baseURL = try await simulator.start()
        #expect(baseURL.hasPrefix("https://127.0.0.1:"))
        let store = CredentialsFileStore(directory: directory.appendingPathComponent("state").path)

        let systemTrustOnly = try CurlTransport(connectTimeout: .seconds(2))
        var refusal: UplinkError?
        do {
            _ = try await Enrolment(transport: systemTrustOnly, store: store)
                .enroll(invitation: await simulator.issueInvitation(), baseURL: baseURL)
        } catch {
            refusal = error
        }
        #expect(refusal?.code == .connectionFailed)
        #expect(refusal?.message.contains("certificate") == true, "the refusal names the certificate: \(refusal?.message ?? "")")
        #expect(try store.load() == nil)

        let withCA = try CurlTransport(caFile: certificates.caPath)
        let outcome: Result<[Outcome], any Error>
        do {
            _ = try await Enrolment(transport: withCA, store: store)
                .enroll(invitation: await simulator.issueInvitation(), baseURL: baseURL)
            let client = JHEClient(tokens: TokenManager(store: store, transport: withCA), transport: withCA)
            outcome = .success(
                await client.deliver(
                    Samples.random(count: 3, seed: 77).map {
                        var sample = $0
                        sample.measurement.contact = .detected
                        return sample
                    }))
        } catch {
            outcome = .failure(error)
        }
        await simulator.stop()
        #expect(try outcome.get() == Array(repeating: .delivered, count: 3))
    }
}
