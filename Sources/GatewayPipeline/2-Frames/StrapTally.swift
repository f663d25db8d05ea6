#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// One strap's figures that move with every frame: how many decoded and how many did not, the
/// last rate and when the last frame came. Written under one lock by the strap's
/// `FrameReceiver` on the D-Bus thread; read by its supervisor (the stall deadline) and by the
/// counter board when it makes a report.
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
        /// The last decoded rate, in beats per minute.
        package var bpm: Int?
        /// The last sample's wall-clock capture time, in nanoseconds since 1970.
        package var lastSampleWallClock: Int64?
        /// When the last frame arrived (or the subscription started, if none has since).
        package var lastFrameAt = ContinuousClock.now
    }

    private let figures = Mutex(Figures())

    /// A tally at zero.
    package init() {}

    /// The figures now.
    package var current: Figures { figures.withLock { $0 } }

    /// A subscription starts: the stall deadline counts from now.
    func subscribed() {
        figures.withLock { $0.lastFrameAt = .now }
    }

    /// A frame decoded into a sample of `bpm`, captured at `wallClock`.
    func sample(bpm: UInt16, wallClock: Int64) {
        figures.withLock {
            $0.samples += 1
            $0.bpm = Int(bpm)
            $0.lastSampleWallClock = wallClock
            $0.lastFrameAt = .now
        }
    }

    /// A frame that did not decode; returns how many have not so far.
    func malformedFrame() -> Int {
        figures.withLock {
            $0.lastFrameAt = .now
            $0.malformedFrames += 1
            return $0.malformedFrames
        }
    }
}
