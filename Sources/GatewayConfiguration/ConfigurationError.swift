import OutputFormats
/// Why the configuration cannot be used: one message naming the file (or environment
/// variable), the key and what is allowed, so the operator can fix it without reading code.
/// Every such error ends a command with exit status 78 (`EX_CONFIG`).
package struct ConfigurationError: CodedError, Sendable, Equatable {
    /// Stable machine-readable codes; their raw values never change once released.
    package enum Code: String, Sendable, Equatable, CaseIterable {
        /// `--config FILE` names a file that does not exist.
        case missingFile = "config.missing-file"
        /// The file exists but cannot be read (permissions, a directory, not UTF-8).
        case unreadableFile = "config.unreadable-file"
        /// The file is not valid TOML.
        case invalidTOML = "config.invalid-toml"
        /// A `[section]` the gateway does not know.
        case unknownSection = "config.unknown-section"
        /// A key the gateway does not know in a known section.
        case unknownKey = "config.unknown-key"
        /// A value of the wrong TOML type (a string where a number belongs).
        case wrongType = "config.wrong-type"
        /// A value of the right type outside what is allowed.
        case invalidValue = "config.invalid-value"
        /// An `EDGE_GATEWAY_<SECTION>_…` variable that names no key.
        case unknownVariable = "config.unknown-variable"
        /// Two variables set the same key to different values.
        case conflictingVariables = "config.conflicting-variables"
    }

    /// What kind of problem.
    package let code: Code
    /// What is wrong, where, and what is allowed.
    package let message: String

    /// An error with its code and the message for the operator.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

}
