import Logging
import OutputFormats

/// A swift-log handler for a daemon under systemd: one line per message on standard error,
/// prefixed with the syslog priority as `sd-daemon(3)` reads it (`<3>` error … `<7>` debug), so
/// the journal keeps the level without libsystemd. The label and metadata follow the message as
/// `key=value` pairs; a message never spans lines (newlines are escaped), so one event stays
/// one journal entry.
///
/// Tokens must never reach a logger: callers log what happened, never credentials.
struct SystemdLogHandler: LogHandler {
    /// Who logs (`edge-gateway`, `edge-gateway.queue`).
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    /// Where finished lines go (standard error in the daemon; tests keep them).
    private let sink: @Sendable (String) -> Void

    /// A handler for `label` that writes lines at or above `level` to `sink`.
    init(label: String, level: Logger.Level, sink: @escaping @Sendable (String) -> Void = { StandardError.writeLine($0) }) {
        self.label = label
        logLevel = level
        self.sink = sink
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Handler metadata, then the provider's, then the message's own (later ones win), and the
    /// attached error, if any, as `error=…`.
    func log(event: LogEvent) {
        var merged = metadata.merging(metadataProvider?.get() ?? [:]) { _, new in new }
        merged.merge(event.metadata ?? [:]) { _, new in new }
        if let error = event.error { merged["error"] = .string(String(describing: error)) }
        sink(Self.format(level: event.level, label: label, message: event.message.description, metadata: merged))
    }

    /// The `sd-daemon` priority of a swift-log level (`trace` shares `debug`'s 7: syslog has
    /// nothing finer).
    static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// One log line: `<priority>label: message key=value …`, keys sorted, without a newline.
    static func format(level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
        var line = "<\(priority(of: level))>\(escaped(label)): \(escaped(message))"
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line += " \(escaped(key))=\(pairValue(flatten(value)))"
        }
        return line
    }

    /// A metadata value as text (arrays and dictionaries in swift-log's own notation).
    private static func flatten(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array, .dictionary: value.description
        }
    }

    /// A value as a JSON string literal when it holds a space, `=`, `"` or `\` (or is empty),
    /// so `key=value` pairs split unambiguously; otherwise bare.
    private static func pairValue(_ text: String) -> String {
        let needsQuotes = text.isEmpty || text.contains { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "\\" }
        return needsQuotes ? JSONWriter.quoted(text) : escaped(text)
    }

    /// `text` on one line, with JSON string escapes (`\n`, `\r`, `\t`, `\"`, `\uXXXX`).
    static func escaped(_ text: String) -> String {
        String(JSONWriter.quoted(text).dropFirst().dropLast())
    }
}

/// The daemon's logging set-up: call `bootstrap(level:)` once, first thing in `run`.
package enum GatewayLogging {
    /// Routes every `Logger` of the process to `SystemdLogHandler` at `level` and above.
    /// swift-log allows one bootstrap per process: a second call traps.
    package static func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { label in SystemdLogHandler(label: label, level: level) }
    }
}
