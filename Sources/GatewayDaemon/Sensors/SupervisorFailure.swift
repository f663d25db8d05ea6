import BlueZ

/// Why a supervisor cycle stopped short: what to tell the operator and whether the cause is
/// expected to clear by itself. Either way the supervisor tries again later; only the report
/// differs.
struct SupervisorFailure: Error, Sendable, CustomStringConvertible {
    let description: String
    let isTransient: Bool

    init(_ description: String, transient: Bool) {
        self.description = description
        isTransient = transient
    }

    init(_ error: BlueZError) {
        description = error.description
        isTransient = error.isTransient
    }
}
