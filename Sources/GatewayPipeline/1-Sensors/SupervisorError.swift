import BlueZ

/// Why a supervisor cycle stopped short: what to tell the operator and whether the cause is
/// expected to clear by itself. Either way the supervisor tries again later; only the report
/// differs.
package struct SupervisorError: Error, Sendable, CustomStringConvertible {
    /// Whether a failed connect says the adapter has no connection slot left.
    package enum SlotRefusal: Sendable, Equatable {
        /// It does not.
        case none
        /// It does (`le-connection-concurrent-connection-limit`, "connection limit").
        case certain
        /// It does when the adapter already holds other connections: controllers out of slots
        /// abort the attempt (`le-connection-abort-by-local`), as interference also makes them.
        case ifAdapterBusy
    }

    /// The sentence for the operator (status, logs).
    package let description: String
    /// Whether the cause is expected to clear by itself (a busy controller, a strap out of range).
    package let isTransient: Bool
    /// Whether the failure may be the adapter's want of a slot rather than the strap's fault.
    package let slotRefusal: SlotRefusal

    /// A failure a `StrapRadio` reports, judged transient or not.
    package init(_ description: String, transient: Bool, slotRefusal: SlotRefusal = .none) {
        self.description = description
        isTransient = transient
        self.slotRefusal = slotRefusal
    }

    init(_ error: BlueZError) {
        description = error.description
        isTransient = error.isTransient
        let message = error.message.lowercased()
        if ["concurrent-connection-limit", "connection limit", "connection slot"].contains(where: message.contains) {
            slotRefusal = .certain
        } else if message.contains("le-connection-abort-by-local") {
            slotRefusal = .ifAdapterBusy
        } else {
            slotRefusal = .none
        }
    }
}
