import Foundation
import GatewayTestSupport
import Testing
@testable import Uplink

@Suite("Uplink transport configuration")
struct TransportConfigurationTests {
    @Test("the proxy URL is taken from https_proxy/HTTP_PROXY as given, credentials and scheme included; never for loopback hosts")
    func proxy() {
        let setting = ProxySetting(environment: ["HTTPS_PROXY": "https://user:p%40ss@proxy.example:3128", "no_proxy": ".internal.example,JHE.local"])
        #expect(setting.proxy(for: "jhe.example.org") == "https://user:p%40ss@proxy.example:3128")
        #expect(setting.noProxy == ".internal.example,JHE.local")
        for host in ["127.0.0.1", "localhost", "::1"] { #expect(setting.proxy(for: host) == "", "\(host)") }
        #expect(setting.proxy(for: "gateway.localhost") != "", "a .localhost name is resolved by DNS here, so it is not loopback")
        #expect(ProxySetting(environment: ["http_proxy": "proxy.example:3128"]).proxy == "http://proxy.example:3128")
        #expect(ProxySetting(environment: [:]).proxy == nil)
        #expect(ProxySetting(environment: ["http_proxy": "not a url"]).proxy == nil)
        #expect(ProxySetting(environment: ["http_proxy": "ftp://proxy.example"]).proxy == nil)
    }

    @Test("a proxy that wants a password gets it from the proxy URL, and libcurl skips it for no_proxy hosts")
    func proxyWithPassword() async throws {
        let proxy = try HostileHTTPServer(.proxy(credentials: "nurse:s3cret pass"))
        defer { proxy.stop() }
        let url = "http://nurse:s3cret%20pass@127.0.0.1:\(proxy.port)"
        let transport = try CurlTransport(environment: ["http_proxy": url])
        let reply = try await transport.send(TransportRequest(method: "GET", url: "http://jhe.invalid/api/v1/users/profile"), timeout: .seconds(30))
        #expect(reply.status == 200, "the proxy refused the credentials: \(reply.status)")
        let head = String(decoding: try #require(proxy.received.first), as: UTF8.self)
        #expect(head.hasPrefix("GET http://jhe.invalid/api/v1/users/profile HTTP/1.1"))

        let bypassing = try CurlTransport(environment: ["http_proxy": url, "NO_PROXY": "jhe.invalid"])
        await #expect(throws: UplinkError.self) {
            try await bypassing.send(TransportRequest(method: "GET", url: "http://jhe.invalid/"), timeout: .seconds(30))
        }
        #expect(proxy.connections == 1, "a no_proxy host went through the proxy")
    }

    @Test("a proxy's 407 to a tunnel is said without the password from the proxy URL")
    func proxyRefusalKeepsThePassword() async throws {
        let proxy = try HostileHTTPServer(.proxy(credentials: "nurse:right"))
        defer { proxy.stop() }
        let transport = try CurlTransport(environment: ["HTTPS_PROXY": "http://nurse:wrong-Pa55@127.0.0.1:\(proxy.port)"])
        do {
            let reply = try await transport.send(TransportRequest(method: "GET", url: "https://jhe.invalid/"), timeout: .seconds(30))
            Issue.record("a tunnel the proxy refused answered HTTP \(reply.status)")
        } catch {
            #expect(!error.description.contains("wrong-Pa55"))
            #expect(error.description.contains("407"), "\(error)")
        }
        let head = String(decoding: try #require(proxy.received.first), as: UTF8.self)
        #expect(head.hasPrefix("CONNECT jhe.invalid:443 HTTP/1.1"))
        #expect(head.contains("Proxy-Authorization: Basic " + Data("nurse:wrong-Pa55".utf8).base64EncodedString()))
    }

    @Test("an https:// proxy is spoken to over TLS: its first bytes are a ClientHello, never a plaintext CONNECT")
    func httpsProxyGetsTLS() async throws {
        let proxy = try HostileHTTPServer(.answer)
        defer { proxy.stop() }
        let transport = try CurlTransport(environment: ["HTTPS_PROXY": "https://127.0.0.1:\(proxy.port)"])
        _ = try? await transport.send(TransportRequest(method: "GET", url: "https://jhe.invalid/"), timeout: .seconds(30))
        let first = try #require(proxy.received.first)
        #expect(first.first == 0x16 && first.dropFirst().first == 0x03, "not a TLS handshake record: \(String(decoding: first.prefix(40), as: UTF8.self))")
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
        let openssl = try await GatewayProcess.run(
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=test-ca",
                "-keyout", directory.appendingPathComponent("key.pem").path, "-out", pem.path,
            ], executable: "openssl")
        try #require(openssl.status == 0, "openssl is needed to make a test CA")
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
                body: Array("grant_type=refresh_token&refresh_token=SECRET&client_id=client".utf8)), timeout: .seconds(30))
        #expect(reply.status == 307)
        #expect(redirector.connections == 1)
        #expect(elsewhere.connections == 0, "the refresh token was re-posted to the redirect's origin")
    }
}
