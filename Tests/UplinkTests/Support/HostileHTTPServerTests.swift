import GatewayTestSupport
import Glibc
import Testing

/// The test server's own contract, which the transport tests rely on.
@Suite("Hostile HTTP test server")
struct HostileHTTPServerTests {
    @Test("a server stopped at once never accepts the connections of the server created after it")
    func stoppedServerTakesNoLaterConnections() async throws {
        var takenByTheStopped = 0
        var countedByTheirOwn = 0
        for _ in 0 ..< 100 {
            let stopped = try HostileHTTPServer(.answerKeepingAlive)
            stopped.stop()
            let server = try HostileHTTPServer(.answerKeepingAlive)
            let client = try loopbackConnection(to: server.port, host: server.host)
            _ = await eventually(within: .seconds(30), polling: .milliseconds(1)) { stopped.connections + server.connections > 0 }
            takenByTheStopped += stopped.connections
            countedByTheirOwn += server.connections
            close(client)
            server.stop()
        }
        #expect(takenByTheStopped == 0)
        #expect(countedByTheirOwn == 100)
    }
}
