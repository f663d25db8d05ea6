/// The one shape of the gateway's errors that reach an operator: a stable code, for scripts,
/// metrics, logs and dead-letter reasons, and a message for a person saying what happened, to
/// what, and what to do about it. Printed as `message [code]` wherever one is shown: standard
/// error, the journal, `status`.
///
/// Naming: every error type is `<Subject>Error` (`QueueError`, `SensorBindingError`); its codes
/// are `<area>.<what-happened>` (`queue.storage-full`), and a code's text never changes once
/// released.
package protocol CodedError: Error, CustomStringConvertible {
    /// The stable codes of this kind of error.
    associatedtype Code: RawRepresentable<String>
    /// What kind of failure.
    var code: Code { get }
    /// What happened, to what, and what the operator can do.
    var message: String { get }
}

extension CodedError {
    /// `message [code]`, as logs and the CLI print it.
    package var description: String { "\(message) [\(code.rawValue)]" }
}
