import GATTHeartRate
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The result of encoding a set of samples: the Observations to send, each tied back to the
/// samples it stands for, and the samples deliberately not sent.
package struct EncodedUpload: Sendable {
    /// One Observation and the samples whose fate it decides.
    package struct Item: Sendable {
        /// What the Observation is built from when its Bundle is written
        /// (`UploadEncoder.observation(for:)`).
        let source: ObservationSource
        /// The samples this Observation carries (one, or a window's worth).
        package var sampleIDs: [UUID]
    }

    /// Observations in the order they are to be sent.
    package var items: [Item]
    /// Samples not uploaded as heart rates because the strap reported no skin contact.
    package var noContactSampleIDs: [UUID]
}

/// The reading, window statistic or RR interval one Observation carries.
///
/// An upload round keeps these rather than the Observations: an Observation is about 1 kB of
/// strings, and a round of 100 samples held all of them beside the Bundle written from them
/// (heaptrack at 10 straps: 100 kB of the round's 310 kB). Each Observation is now built while
/// the Bundle is written and dropped once it is in the Bundle.
enum ObservationSource: Sendable {
    /// One heart rate, every-sample mode.
    case reading(HeartRateSample)
    /// One statistic (`average`, `minimum`, `maximum`) of a window, windowed mode, with the
    /// identifier its members name (derived once per window, not once per statistic).
    case windowStatistic(HeartRateWindow, statistic: String, bpm: Double, uuid: UUID)
    /// The RR interval at `index` of a sample, ending at `endNanoseconds`.
    case rrInterval(HeartRateSample, index: Int, endNanoseconds: Int64)
}
