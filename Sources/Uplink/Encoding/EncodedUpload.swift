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
        /// What goes into the Bundle.
        package var observation: FHIRObservation
        /// The samples this Observation carries (one, or a window's worth).
        package var sampleIDs: [UUID]
    }

    /// Observations in the order they are to be sent.
    package var items: [Item]
    /// Samples not uploaded as heart rates because the strap reported no skin contact.
    package var noContactSampleIDs: [UUID]
}
