import CCurl
import Foundation
import GatewayTestSupport
import Testing
@testable import Uplink

/// The libcurl transport's own behaviour, over real loopback sockets.
@Suite("Uplink curl transport")
struct CurlTransportTests {
    @Test("consecutive requests to one server share one kept-alive connection, across transports")
    func connectionsAreReused() async throws {
        let server = try HostileHTTPServer(.answerKeepingAlive)
        defer { server.stop() }
        for _ in 0 ..< 3 {
            let reply = try await CurlTransport().send(TransportRequest(method: "GET", url: server.baseURL + "/api/v1/users/profile"), timeout: .seconds(30))
            #expect(reply.status == 200)
            #expect(reply.body == Data("{}".utf8))
        }
        #expect(server.connections == 1)
    }

    @Test("a body sent on a kept-alive connection that the server then closed unanswered is sent again, whole, on a new one")
    func bodyIsResentOnANewConnection() async throws {
        let server = try HostileHTTPServer(.closingReusedConnections)
        defer { server.stop() }
        let transport = try CurlTransport()
        for length in [10, 300_000] {
            let body = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let reply = try await transport.send(TransportRequest(method: "POST", url: server.baseURL + "/FHIR/R5/", body: body), timeout: .seconds(30))
            #expect(reply.status == 200)
            #expect(String(decoding: reply.body, as: UTF8.self) == "\(length)/\(body.reduce(0) { $0 + Int($1) })")
        }
        #expect(server.connections == 2)
    }

    @Test("cancelling the caller ends a request in flight with a typed error instead of waiting for its deadline")
    func cancellationEndsTheRequest() async throws {
        let server = try HostileHTTPServer(.trickle(interval: 0.5, bodyBytes: 200))
        defer { server.stop() }
        let request = Task {
            try await CurlTransport().send(TransportRequest(method: "GET", url: server.baseURL + "/"), timeout: .seconds(60))
        }
        try await waitUntil { server.connections == 1 }
        request.cancel()
        do {
            let reply = try await request.value
            Issue.record("a cancelled request read a 100-second reply whole (HTTP \(reply.status))")
        } catch let error as UplinkError {
            #expect(error.code == .connectionFailed)
            #expect(error.message.contains("abandoned"))
        }
    }

    @Test("a refused connection is said plainly, naming the host")
    func refusedConnection() async throws {
        let server = try HostileHTTPServer(.answer)
        let url = server.baseURL + "/"
        server.stop()
        do {
            _ = try await CurlTransport(connectTimeout: .seconds(5)).send(TransportRequest(method: "GET", url: url), timeout: .seconds(30))
            Issue.record("a closed port answered")
        } catch {
            #expect(error.code == .connectionFailed)
            #expect(error.message.contains("connection refused"))
            #expect(error.message.contains(server.host))
        }
    }

    @Test("a header value with a line break is refused before anything is sent, so it cannot add headers of its own")
    func headerInjectionIsRefused() async throws {
        let server = try HostileHTTPServer(.answer)
        defer { server.stop() }
        let request = TransportRequest(
            method: "GET", url: server.baseURL + "/", headers: [("Authorization", "Bearer abc\r\nX-Injected: 1")])
        do {
            _ = try await CurlTransport().send(request, timeout: .seconds(30))
            Issue.record("a header with CR LF was sent")
        } catch {
            #expect(error.code == .unexpectedReply)
            #expect(error.message.contains("Authorization"))
            #expect(!error.message.contains("abc"), "the token's text is not repeated")
        }
        #expect(server.connections == 0)
    }

    @Test("a ca_file whose certificate block is not base64 DER is refused, naming the block")
    func damagedCertificateBlock() throws {
        let directory = try SchemaValidator.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ca.pem").path
        try "-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try CurlTransport(caFile: path) } throws: {
            ($0 as? UplinkError)?.code == .invalidCAFile && "\($0)".contains("certificate 1")
        }
        try "just text\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try CurlTransport(caFile: path) } throws: {
            ($0 as? UplinkError)?.code == .invalidCAFile && "\($0)".contains("no PEM certificate")
        }
    }

    @Test("a timeout or a connection broken mid-exchange may have reached the server; a refused connection did not")
    func mayHaveReachedServer() {
        func error(_ code: CURLcode, _ errno: Int32 = 0) -> UplinkError {
            CurlTransport.error(code, detail: "detail", systemError: Int(errno), host: "jhe.example.org", timeout: .seconds(60))
        }
        #expect(error(CURLE_OPERATION_TIMEDOUT).mayHaveReachedServer)
        for code in [CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_SEND_ERROR] { #expect(error(code).mayHaveReachedServer, "\(code)") }
        #expect(!error(CURLE_COULDNT_CONNECT, ECONNREFUSED).mayHaveReachedServer)
        #expect(!error(CURLE_COULDNT_RESOLVE_HOST).mayHaveReachedServer)
        #expect(!error(CURLE_SSL_CONNECT_ERROR).mayHaveReachedServer)
    }
}
