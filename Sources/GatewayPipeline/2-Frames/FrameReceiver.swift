#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import Synchronization

/// Turns one strap's 0x2A37 frames into samples on the thread that reads them (the D-Bus
/// connection's for `PropertiesChanged`, the storage thread's for a gathered `AcquireNotify`
/// socket): decoding a frame and handing the sample on costs less than waking a task for it.
///
/// It counts every frame in the strap's `StrapTally`, which its supervisor (the stall deadline)
/// and the counter board read.
final class FrameReceiver: Sendable {
    let tally: StrapTally
    private let address: BluetoothAddress
    private let patientID: String?
    private let clock: CaptureClock
    private let onSample: @Sendable (HeartRateSample) -> Void
    private let onEvent: @Sendable (SensorEvent) -> Void

    init(
        address: BluetoothAddress, patientID: String?, clock: CaptureClock, tally: StrapTally,
        onSample: @escaping @Sendable (HeartRateSample) -> Void, onEvent: @escaping @Sendable (SensorEvent) -> Void
    ) {
        self.address = address
        self.patientID = patientID
        self.clock = clock
        self.tally = tally
        self.onSample = onSample
        self.onEvent = onEvent
    }

    /// Decodes `frame`, which arrived `arrivedNanosecondsAgo`, and hands its sample on, or
    /// counts and reports it as malformed.
    func receive(_ frame: [UInt8], arrivedNanosecondsAgo: UInt64) {
        let captured = clock.now(arrivedNanosecondsAgo: arrivedNanosecondsAgo)
        do {
            let decoded = try HeartRateMeasurement.decode(frame)
            tally.sample(decoded.value, wallClock: captured.wallClockNanoseconds)
            onSample(
                HeartRateSample(
                    id: UUID.random(), sensor: address, patientID: patientID, measurement: decoded.value, captured: captured))
        } catch {
            onEvent(.malformedFrame(address, bytes: frame, error: error, count: tally.malformedFrame()))
        }
    }
}
