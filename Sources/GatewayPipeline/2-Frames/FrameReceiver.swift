#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import Synchronization

/// Turns one strap's 0x2A37 frames into samples on the thread that reads them (the D-Bus
/// connection's): decoding a frame and handing the sample on costs less than waking a task for
/// it, and a notification then wakes that one thread and nothing else.
///
/// It keeps the strap's tallies under a lock, for its supervisor (the stall deadline) and its
/// tests.
final class FrameReceiver: Sendable {
    private struct Tally {
        var samples = 0
        var malformedFrames = 0
        var lastFrameAt = ContinuousClock.now
    }

    private let address: BluetoothAddress
    private let patientID: String?
    private let clock: CaptureClock
    private let onSample: @Sendable (HeartRateSample) -> Void
    private let onEvent: @Sendable (SensorEvent) -> Void
    private let tally = Mutex(Tally())

    init(
        address: BluetoothAddress, patientID: String?, clock: CaptureClock,
        onSample: @escaping @Sendable (HeartRateSample) -> Void, onEvent: @escaping @Sendable (SensorEvent) -> Void
    ) {
        self.address = address
        self.patientID = patientID
        self.clock = clock
        self.onSample = onSample
        self.onEvent = onEvent
    }

    /// Frames received and turned into samples.
    var samples: Int { tally.withLock { $0.samples } }
    /// Frames that did not decode.
    var malformedFrames: Int { tally.withLock { $0.malformedFrames } }
    /// When the last frame arrived (or the subscription started, if none has since).
    var lastFrameAt: ContinuousClock.Instant { tally.withLock { $0.lastFrameAt } }

    /// A subscription starts: the stall deadline counts from now.
    func subscribed() {
        tally.withLock { $0.lastFrameAt = .now }
    }

    /// Decodes `frame` and hands its sample on, or counts and reports it as malformed.
    func receive(_ frame: [UInt8]) {
        let captured = clock.now()
        do {
            let decoded = try HeartRateMeasurement.decode(frame)
            tally.withLock {
                $0.lastFrameAt = .now
                $0.samples += 1
            }
            onSample(
                HeartRateSample(
                    id: UUID.random(), sensor: address, patientID: patientID, measurement: decoded.value, captured: captured))
        } catch {
            let count = tally.withLock {
                $0.lastFrameAt = .now
                $0.malformedFrames += 1
                return $0.malformedFrames
            }
            onEvent(.malformedFrame(address, bytes: frame, error: error, count: count))
        }
    }
}
