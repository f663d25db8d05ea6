import Glibc

/// A Unix file descriptor received in or sent with a message (`h`), owned by this object.
///
/// `AcquireNotify` hands back a socket this way. libdbus gives the receiver its own duplicate,
/// so the descriptor is closed when the last reference goes away, and nothing leaks if a reply
/// is dropped unread.
package final class DBusFileDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The descriptor number, valid while this object lives.
    package let rawValue: Int32

    /// Takes ownership of `rawValue`: it will be closed when this object is released.
    package init(takingOwnershipOf rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// A duplicate of the descriptor that the caller owns and must close: for handing the
    /// descriptor to code that outlives this object (a socket reader).
    package func duplicate() -> Int32 {
        dup(rawValue)
    }

    deinit { close(rawValue) }

    /// Identity, not descriptor number: equal only when both are the same owning object.
    package static func == (lhs: DBusFileDescriptor, rhs: DBusFileDescriptor) -> Bool { lhs === rhs }
    /// Hashes the object's identity, consistent with `==`.
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    /// `fd 7`: the descriptor number, for logs.
    package var description: String { "fd \(rawValue)" }
}
