import Foundation
import GatewayTestSupport
import Testing
@testable import Uplink

@Suite("Uplink transport configuration")
struct TransportConfigurationTests {
    @Test("proxy from https_proxy/HTTP_PROXY, never for loopback or no_proxy hosts")
    func proxy() {
        let setting = ProxySetting(environment: ["HTTPS_PROXY": "http://proxy.example:3128", "no_proxy": ".internal.example,JHE.local"])
        #expect(setting.proxy != nil)
        #expect(!setting.bypasses("jhe.example.org"))
        #expect(setting.bypasses("127.0.0.1"))
        #expect(setting.bypasses("localhost"))
        #expect(setting.bypasses("api.internal.example"))
        #expect(setting.bypasses("jhe.local"))
        #expect(!setting.bypasses("gateway.localhost"), "a .localhost name is resolved by DNS here, so it is not loopback")
        #expect(ProxySetting(environment: [:]).proxy == nil)
        #expect(ProxySetting(environment: ["http_proxy": "not a url"]).proxy == nil)
        #expect(ProxySetting(environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "*"]).bypasses("jhe.example.org"))
    }

    @Test("with a proxy set, a request to a loopback server goes direct: the proxy never sees a connection")
    func loopbackBypassesTheProxy() async throws {
        let proxy = try HostileHTTPServer(.answer)
        defer { proxy.stop() }
        let server = try HostileHTTPServer(.answer)
        defer { server.stop() }
        let transport = try CurlTransport(environment: ["HTTPS_PROXY": proxy.baseURL, "HTTP_PROXY": proxy.baseURL, "NO_PROXY": "127.0.0.1"])
        let reply = try await transport.send(
            TransportRequest(method: "GET", url: server.baseURL + "/o/.well-known/openid-configuration"), timeout: .seconds(30))
        #expect(reply.status == 200)
        #expect(server.connections == 1)
        #expect(proxy.connections == 0)
    }

    @Test("plain http is allowed to 127.0.0.0/8, ::1 and localhost only; a .localhost name is not loopback")
    func loopbackHosts() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1"] { #expect(LoopbackHost.isLoopback(host), "\(host)") }
        for host in ["gateway.localhost", "localhost.example.org", "128.0.0.1", "127.0.0", "10.0.0.1"] { #expect(!LoopbackHost.isLoopback(host), "\(host)") }
        #expect(throws: UplinkError.self) { try ServerAddress(baseURL: "http://jhe.localhost:8000") }
    }

    @Test("a ca_file that is not PEM is refused with a typed error naming it; a real PEM is accepted")
    func caFile() async throws {
        #expect { try CurlTransport(caFile: "/nonexistent/ca.pem") } throws: {
            ($0 as? UplinkError)?.code == .invalidCAFile && "\($0)".contains("/nonexistent/ca.pem")
        }
        let directory = try SchemaValidator.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pem = directory.appendingPathComponent("ca.pem")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=test-ca",
            "-keyout", directory.appendingPathComponent("key.pem").path, "-out", pem.path,
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        await openssl.waitForExit()
        try #require(openssl.terminationStatus == 0, "openssl is needed to make a test CA")
        #expect(throws: Never.self) { try CurlTransport(caFile: pem.path) }
    }

    @Test("a reply whose body trickles in is cut off by the request's one deadline (body included) with uplink.timed-out")
    func tricklingBodyTimesOut() async throws {
        let server = try HostileHTTPServer(.trickle(interval: 0.5, bodyBytes: 200))
        defer { server.stop() }
        let transport = try CurlTransport()
        do {
            let reply = try await transport.send(TransportRequest(method: "GET", url: server.baseURL + "/"), timeout: .seconds(2))
            Issue.record("a 100-second body was read whole within a 2-second deadline (HTTP \(reply.status))")
        } catch {
            #expect(error.code == .timedOut)
            #expect(error.message.contains("did not arrive whole"))
        }
    }

    @Test("a redirect to another origin is not followed: the token and the body never reach it, and the caller sees the 307")
    func redirectsAreNotFollowed() async throws {
        let elsewhere = try HostileHTTPServer(.answer)
        defer { elsewhere.stop() }
        let redirector = try HostileHTTPServer(.redirect(to: elsewhere.baseURL + "/o/token/"))
        defer { redirector.stop() }
        let transport = try CurlTransport()
        let reply = try await transport.send(
            TransportRequest(
                method: "POST", url: redirector.baseURL + "/o/token/",
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Data("grant_type=refresh_token&refresh_token=SECRET&client_id=client".utf8)), timeout: .seconds(30))
        #expect(reply.status == 307)
        #expect(redirector.connections == 1)
        #expect(elsewhere.connections == 0, "the refresh token was re-posted to the redirect's origin")
    }
}
