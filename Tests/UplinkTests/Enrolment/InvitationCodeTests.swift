import Testing
@testable import Uplink

@Suite("Uplink invitation links and codes")
struct InvitationCodeTests {
    let token = "Ihj8HHWpQ2abcdefghijklmnopqrstuv"

    @Test("a whole link, an encoded code and a bare code all give host and token; split at the last _")
    func accepted() throws {
        let link = try InvitationCode(parsing: "https://app.example/invite?code=jhe.example.org%3A443_\(token)&x=1")
        let encoded = try InvitationCode(parsing: "jhe.example.org%3A443_\(token)")
        let bare = try InvitationCode(parsing: "  jhe.example.org:443_\(token)\n")
        #expect(link == encoded && link == bare)
        #expect(link.host == "jhe.example.org:443" && link.token == token)
        let underscoreHost = try InvitationCode(parsing: "my_host.example_\(token)")
        #expect(underscoreHost.host == "my_host.example")
        #expect(link.impliedBaseURL == "https://jhe.example.org:443")
        #expect(try InvitationCode(parsing: "127.0.0.1%3A8000_\(token)").impliedBaseURL == "http://127.0.0.1:8000")
    }

    @Test("the PKCE verifier is base64url of the token's bytes without padding (RFC 7636 style)")
    func verifier() throws {
        let code = try InvitationCode(parsing: "h_\(token)")
        #expect(code.codeVerifier == "SWhqOEhIV3BRMmFiY2RlZmdoaWprbG1ub3BxcnN0dXY")
        #expect(try InvitationCode(parsing: "h_abcd").codeVerifier == "YWJjZA")
    }

    @Test(
        "bad links and codes give specific typed errors",
        arguments: [
            ("https://app.example/invite?nocode=1", UplinkError.Code.invalidInvitation),
            ("justatoken", .invalidInvitation),
            ("_tokenonly", .invalidInvitation),
            ("host_", .invalidInvitation),
            ("host_tok%en", .invalidInvitation),
            ("host_tok-en", .invalidInvitation),
            ("host%7Eclient%7Ecode%7Everifier", .unsupportedInvitationFormat),
        ])
    func rejected(input: String, code: UplinkError.Code) {
        #expect { try InvitationCode(parsing: input) } throws: { ($0 as? UplinkError)?.code == code }
    }

    @Test(
        "links of other schemes, plain http to another machine, control characters and hosts that are not one host are refused before anything is contacted",
        arguments: [
            "javascript:alert(1)//?code=jhe.example.org_TOKEN",
            "file:///etc/passwd?code=jhe.example.org_TOKEN",
            "ftp://app.example/invite?code=jhe.example.org_TOKEN",
            "data:text/html,x?code=jhe.example.org_TOKEN",
            "http://app.example/invite?code=jhe.example.org_TOKEN",
            "https://app.example/invite?code=127.0.0.1%00.evil.example_TOKEN",
            "127.0.0.1%00.evil.example_TOKEN",
            "https://app.example/in\tvite?code=jhe.example.org_TOKEN",
            "https://app.example/invite?code=jhe.example.org\u{0}_TOKEN",
            "jhe.example.org%0A_TOKEN",
            "good.example%40evil.example_TOKEN",
            "evil.example%2Fgood.example_TOKEN",
            "jhe.example.org%3A99999999_TOKEN",
            "jhe%20example.org_TOKEN",
        ])
    func hostileLinks(input: String) {
        #expect { try InvitationCode(parsing: input) } throws: { ($0 as? UplinkError)?.code == .invalidInvitation }
    }

    @Test("an http:// link to this machine is taken (a local JHE); a huge host is quoted cut short")
    func loopbackLinkAndShortEchoes() throws {
        #expect(try InvitationCode(parsing: "http://127.0.0.1:8000/invite?code=127.0.0.1%3A8000_\(token)").host == "127.0.0.1:8000")
        let huge = String(repeating: "a", count: 100_000)
        do {
            _ = try InvitationCode(parsing: "https://app.example/invite?code=\(huge)_\(token)")
            Issue.record("a 100,000-character host was taken")
        } catch {
            #expect(error.message.count < 400, "\(error.message.count) characters")
            #expect(error.message.contains("100000 characters"))
        }
        #expect { try ServerAddress(baseURL: "https://" + huge + "/x y") } throws: { ($0 as? UplinkError).map { $0.message.count < 400 } ?? false }
    }

    @Test("plain http:// is refused except to loopback hosts")
    func httpOnlyLoopback() throws {
        #expect(try ServerAddress(baseURL: "http://127.0.0.1:8000/").baseURL == "http://127.0.0.1:8000")
        #expect(try ServerAddress(baseURL: "http://localhost:1").fhirBatchURL == "http://localhost:1/FHIR/R5/")
        #expect(try ServerAddress(baseURL: "http://[::1]:9").host == "::1:9")
        #expect(try ServerAddress(baseURL: "https://jhe.example.org", fhirBasePath: "fhir/r5").fhirBatchURL == "https://jhe.example.org/fhir/r5/")
        for insecure in ["http://jhe.example.org", "http://10.0.0.5:8000", "http://127.0.0.1.example.org"] {
            #expect { try ServerAddress(baseURL: insecure) } throws: { ($0 as? UplinkError)?.code == .insecureURL }
        }
        for invalid in ["jhe.example.org", "ftp://x", "https://", "https://host:port"] {
            #expect { try ServerAddress(baseURL: invalid) } throws: { ($0 as? UplinkError)?.code == .invalidBaseURL }
        }
    }
}
