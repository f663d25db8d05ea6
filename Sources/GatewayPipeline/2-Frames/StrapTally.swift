#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import Synchronization

/// One strap's figures that move with every frame: how many decoded and how many did not, the
/// last measurement, when the last frame came, and the last ten minutes of heart rate. Written
/// under one lock by the strap's `FrameReceiver` on the thread that read the frame; read by its
/// supervisor (the stall deadline) and by the counter board when it makes a report.
///
/// Why a shared object rather than an update of the board per frame: the board's lock, a
/// lookup by address and a raised change per notification were a sizeable part of the D-Bus
/// thread's work, for figures that are read once every few seconds. The board is told of
/// news once per commit instead (the intake's `accepted`), which refreshes these too.
package final class StrapTally: Sendable {
    /// The figures at one moment.
    package struct Figures: Sendable {
        /// Frames decoded into samples.
        package var samples = 0
        /// Frames that did not decode.
        package var malformedFrames = 0
        /// The last decoded measurement (rate, skin contact, RR intervals).
        package var measurement: HeartRateMeasurement?
        /// The last sample's wall-clock capture time, in nanoseconds since 1970.
        package var lastSampleWallClock: Int64?
        /// When the last frame arrived (or the subscription started, if none has since).
        package var lastFrameAt = ContinuousClock.now
    }

    /// The history beside the figures rather than in them, so a report's copy of the figures
    /// never shares the ring's storage (which the next sample would then copy whole).
    private let state = Mutex((figures: Figures(), history: HeartRateHistory()))

    /// A tally at zero.
    package init() {}

    /// The figures now.
    package var current: Figures { state.withLock { $0.figures } }

    /// A subscription starts: the stall deadline counts from now.
    func subscribed() {
        state.withLock { $0.figures.lastFrameAt = .now }
    }

    /// The heart rate of the ten minutes ending at `now` (seconds since 1970), oldest first.
    package func readings(endingAt now: Int64) -> [(second: Int64, bpm: Int)] {
        state.withLock { $0.history }.readings(endingAt: now)
    }

    /// A frame decoded into `measurement`, captured at `wallClock`.
    func sample(_ measurement: HeartRateMeasurement, wallClock: Int64) {
        state.withLock {
            $0.figures.samples += 1
            $0.figures.measurement = measurement
            $0.figures.lastSampleWallClock = wallClock
            $0.figures.lastFrameAt = .now
            $0.history.record(bpm: measurement.bpm, wallClock: wallClock)
        }
    }

    /// A frame that did not decode; returns how many have not so far.
    func malformedFrame() -> Int {
        state.withLock {
            $0.figures.lastFrameAt = .now
            $0.figures.malformedFrames += 1
            return $0.figures.malformedFrames
        }
    }
}
