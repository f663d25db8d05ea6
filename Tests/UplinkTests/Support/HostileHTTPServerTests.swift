import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The test server's own contract, which the transport tests rely on.
@Suite("Hostile HTTP test server")
struct HostileHTTPServerTests {
    @Test("a server stopped at once never accepts the connections of the server created after it")
    func stoppedServerTakesNoLaterConnections() throws {
        var takenByTheStopped = 0
        var countedByTheirOwn = 0
        for _ in 0 ..< 100 {
            let stopped = try HostileHTTPServer(.answerKeepingAlive)
            stopped.stop()
            let server = try HostileHTTPServer(.answerKeepingAlive)
            let client = try Self.connect(to: server)
            let deadline = Date().addingTimeInterval(30)
            while stopped.connections + server.connections == 0 && Date() < deadline { usleep(1_000) }
            takenByTheStopped += stopped.connections
            countedByTheirOwn += server.connections
            close(client)
            server.stop()
        }
        #expect(takenByTheStopped == 0)
        #expect(countedByTheirOwn == 100)
    }

    /// A plain TCP connection to `server`.
    private static func connect(to server: HostileHTTPServer) throws -> Int32 {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(server.host)
        address.sin_port = server.port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(client)
            throw POSIXError(.ECONNREFUSED)
        }
        return client
    }
}
