#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 4122 version-5 (SHA-1, name-based) UUIDs for data points that are derived from samples
/// rather than being one sample: RR intervals and windowed statistics. The same inputs always
/// give the same UUID, so a re-sent derived point keeps its identifier and JHE answers 409.
enum NameBasedUUID {
    /// The gateway's own namespace for derived data points.
    static let namespace = UUID(uuidString: "6f1c2d3e-8a4b-5c6d-9e0f-1a2b3c4d5e6f")!

    /// The version-5 UUID of `name` in `namespace`.
    static func make(_ name: String, in namespace: UUID = namespace) -> UUID {
        var hasher = SHA1()
        withUnsafeBytes(of: namespace.uuid) { hasher.update($0) }
        hasher.update(name.utf8)
        var bytes = Array(hasher.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
