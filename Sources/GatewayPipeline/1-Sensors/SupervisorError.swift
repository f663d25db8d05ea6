import BlueZ

/// Why a supervisor cycle stopped short: what to tell the operator and whether the cause is
/// expected to clear by itself. Either way the supervisor tries again later; only the report
/// differs.
package struct SupervisorError: Error, Sendable, CustomStringConvertible {
    /// The sentence for the operator (status, logs).
    package let description: String
    /// Whether the cause is expected to clear by itself (a busy controller, a strap out of range).
    package let isTransient: Bool

    /// A failure a `StrapRadio` reports, judged transient or not.
    package init(_ description: String, transient: Bool) {
        self.description = description
        isTransient = transient
    }

    init(_ error: BlueZError) {
        description = error.description
        isTransient = error.isTransient
    }
}
