@testable import GatewayPipeline
import Logging
import Testing

/// What the fleet writes to the journal about straps that keep failing.
@Suite("Daemon: strap failure logging")
struct SensorFleetLoggingTests {
    @Test("the 1st, 2nd, 4th, 8th… failure in a row is a warning and the rest debug: a day of one-minute retries is a dozen warnings")
    func repeatedFailuresThinOut() {
        let warned = (1 ... 1440).filter { SensorFleet.retryLogLevel(failures: $0) == .warning }
        #expect(warned == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])
        #expect(SensorFleet.retryLogLevel(failures: 3) == .debug)
    }
}
