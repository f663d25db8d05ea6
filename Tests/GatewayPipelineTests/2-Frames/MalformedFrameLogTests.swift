import GATTHeartRate
@testable import GatewayPipeline
import Synchronization
import Testing

@Suite("Malformed frame log")
struct MalformedFrameLogTests {
    @Test("reports a malformed frame with its hex and code, then holds back the rest of a burst and counts them")
    func rateLimited() async throws {
        let lines = Mutex<[String]>([])
        let log = MalformedFrameLog(interval: .seconds(3600)) { line in lines.withLock { $0.append(line) } }
        let address = try #require(BluetoothAddress("F0:1D:2E:3C:00:01"))
        let other = try #require(BluetoothAddress("F0:1D:2E:3C:00:02"))
        let error = try #require(#expect(throws: FrameDecodingError.self) { try HeartRateMeasurement.decode([0x10]) })
        for count in 1 ... 50 {
            await log.record(address, bytes: [0x10], error: error, total: count)
        }
        await log.record(other, bytes: [], error: error, total: 1)
        let written = lines.withLock { $0 }
        #expect(written.count == 2)
        #expect(written[0].hasPrefix("F0:1D:2E:3C:00:01: malformed frame 10: Heart Rate Measurement (0x2A37) truncated"))
        #expect(written[0].hasSuffix("[frame.truncated-heart-rate]; 1 so far"))
        #expect(written[1].hasPrefix("F0:1D:2E:3C:00:02: malformed frame (empty)"))
    }

    @Test("says how many frames it held back once the interval has passed")
    func reportsSuppressedCount() async throws {
        let lines = Mutex<[String]>([])
        let clock = Mutex(ContinuousClock.now)
        let log = MalformedFrameLog(interval: .seconds(60), now: { clock.withLock { $0 } }) { line in
            lines.withLock { $0.append(line) }
        }
        let address = try #require(BluetoothAddress("F0:1D:2E:3C:00:01"))
        let error = try #require(#expect(throws: FrameDecodingError.self) { try HeartRateMeasurement.decode([]) })
        for count in 1 ... 5 { await log.record(address, bytes: [], error: error, total: count) }
        clock.withLock { $0 = $0.advanced(by: .seconds(61)) }
        await log.record(address, bytes: [], error: error, total: 6)
        let written = lines.withLock { $0 }
        #expect(written.count == 2)
        #expect(written[1].hasSuffix("6 so far (4 more since the last report)"))
    }
}
