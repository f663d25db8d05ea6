#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A record handed to ``OfflineQueue/append(_:)``: opaque bytes plus what the queue needs to
/// order, bound and report them. The queue never looks inside `payload`.
package struct NewRecord: Sendable, Hashable {
    /// The bytes to keep, in the format named by `version`.
    package var payload: Data
    /// Who produced it (for example one sensor); evictions are counted per stream.
    package var stream: String
    /// When it was captured, in nanoseconds since 1970. Records committed together get ids in
    /// this order, and leases follow id order.
    package var captureTime: Int64
    /// The payload format version, chosen by the producer, so a reader can tell formats apart.
    package var version: Int

    /// A record from its parts.
    package init(payload: Data, stream: String, captureTime: Int64, version: Int) {
        self.payload = payload
        self.stream = stream
        self.captureTime = captureTime
        self.version = version
    }
}
