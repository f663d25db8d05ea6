@testable import GatewayDaemon
import Testing

/// Requests read from hostile bytes: heads, bodies, and what is refused.
@Suite("HTTP: reading a request")
struct HTTPRequestTests {
    static func parse(_ text: String, maximumBody: Int = 16) -> HTTPRequest.Parse {
        HTTPRequest.parse(Array(text.utf8), maximumBody: maximumBody)
    }

    static func refusal(_ parse: HTTPRequest.Parse) -> Int? {
        if case .refused(let reply) = parse { reply.status } else { nil }
    }

    @Test("a head with a query and fields, and a body of Content-Length bytes once all of it has arrived")
    func request() throws {
        guard case .request(let get) = Self.parse("GET /api/status?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-A:\tb \r\n\r\n") else {
            Issue.record("not a request")
            return
        }
        #expect(get.method == "GET" && get.path == "/api/status" && get.query == "x=1")
        #expect(get.header("host") == "127.0.0.1:8080" && get.header("X-A") == "b " && get.body.isEmpty)
        let post = "POST /login HTTP/1.1\r\nContent-Length: 5\r\n\r\nab"
        guard case .incomplete = Self.parse(post) else {
            Issue.record("a body still arriving was taken")
            return
        }
        guard case .request(let whole) = Self.parse(post + "cde") else {
            Issue.record("the whole body was not taken")
            return
        }
        #expect(whole.body == Array("abcde".utf8))
    }

    @Test("a head still arriving waits; one over 8 KiB, a bad request line or field, a chunked or oversized body are refused")
    func refusals() {
        guard case .incomplete = Self.parse("GET / HTTP/1.1\r\nHost: x\r\n") else {
            Issue.record("an incomplete head was answered")
            return
        }
        #expect(Self.refusal(Self.parse(String(repeating: "A", count: 8192))) == 400)
        #expect(Self.refusal(Self.parse("GET / SPDY/3\r\n\r\n")) == 400)
        #expect(Self.refusal(Self.parse("GET / HTTP/1.1\r\nno colon here\r\n\r\n")) == 400)
        #expect(Self.refusal(Self.parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")) == 411)
        #expect(Self.refusal(Self.parse("POST / HTTP/1.1\r\nContent-Length: 17\r\n\r\n")) == 413)
        #expect(Self.refusal(Self.parse("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n")) == 400)
        #expect(Self.refusal(Self.parse("POST / HTTP/1.1\r\nContent-Length: ٣\r\n\r\n")) == 400)
    }
}
