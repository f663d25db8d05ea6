import Foundation
import JHESimulator
import Testing
@testable import Uplink

/// `[uplink] base_url` and `fhir_path` against the enrolment: one answer for where uploads go,
/// and a bearer token never reaches a server that did not issue it.
@Suite("Uplink server settings")
struct ServerSettingsTests {
    static func enrolled(_ baseURL: String, fhirPath: String = "/FHIR/R5/") throws -> Credentials {
        Credentials(
            kind: .patient, server: try ServerAddress(baseURL: baseURL, fhirBasePath: fhirPath), clientID: "client",
            accessToken: "ACCESS", refreshToken: "REFRESH", clientKey: nil, expiresAt: 1_800_000_000, patientID: "40006", deviceID: "70007")
    }

    @Test("without settings, uploads go to the enrolled server and FHIR path")
    func enrolledServer() throws {
        let server = try ServerSettings().server(for: try Self.enrolled("https://jhe.example.org", fhirPath: "/fhir/r5/"))
        #expect(server.fhirBatchURL == "https://jhe.example.org/fhir/r5/")
    }

    @Test("a base_url naming the enrolled server however it is spelled is accepted, and fhir_path moves the FHIR path")
    func sameServerOtherSpelling() throws {
        let credentials = try Self.enrolled("https://jhe.example.org")
        for spelling in ["https://jhe.example.org/", "https://JHE.Example.org", "https://jhe.example.org:443"] {
            let server = try ServerSettings(baseURL: spelling, fhirPath: "/fhir/r5/").server(for: credentials)
            #expect(server.fhirBatchURL == "https://jhe.example.org/fhir/r5/")
        }
    }

    @Test("a base_url naming another server is refused with uplink.server-moved, naming both servers")
    func movedServer() throws {
        let credentials = try Self.enrolled("https://jhe.example.org")
        for other in ["https://jhe2.example.org", "https://jhe.example.org:8443", "http://127.0.0.1:9", "https://jhe.example.org/api"] {
            do {
                _ = try ServerSettings(baseURL: other).server(for: credentials)
                Issue.record("\(other) was accepted")
            } catch {
                #expect(error.code == .serverMoved)
                #expect(error.message.contains("jhe.example.org") && error.message.contains("edge-gateway enroll"))
            }
        }
    }

    @Test("with base_url naming another server, a delivery sends nothing: no token request, no upload, samples unsettled with the reason")
    func movedServerSendsNothing() async throws {
        try await SimulatorHarness.with { harness in
            try await harness.enroll()
            let elsewhere = JHESimulator()
            let elsewhereURL = try await elsewhere.start()
            let tokens = TokenManager(
                store: harness.store, transport: harness.transport, serverSettings: ServerSettings(baseURL: elsewhereURL), now: harness.now)
            harness.advanceGatewayClock(by: 1_209_600)
            let outcomes = await harness.client(tokens: tokens).deliver(Samples.random(count: 3, seed: 31))
            for outcome in outcomes {
                guard case .retryLater(let reason) = outcome else {
                    Issue.record("expected retryLater, got \(outcome)")
                    continue
                }
                #expect(reason.contains("uplink.server-moved"))
            }
            #expect(await harness.simulator.counters.tokenRequests == 1, "only the enrolment's token request")
            #expect(await harness.simulator.counters.batchRequests == 0)
            #expect(await elsewhere.counters.requests == 0, "a request reached the server that issued no token")
            #expect(!(await harness.client(tokens: tokens).probe()))
            await elsewhere.stop()
        }
    }
}
