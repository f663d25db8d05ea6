/// Text from outside (a strap's advertised name, its GATT strings) made safe for a terminal:
/// every control character (C0, DEL, C1) and every bidirectional override is shown as
/// `\u{XX}` instead of being sent, so a strap named `\e]0;PWNED\a\e[2J` cannot retitle or
/// clear the technician's terminal, and a right-to-left override cannot disguise a name.
/// JSON output escapes them already (`JSONWriter.Escaping.terminalSafe`); logs do too
/// (`SystemdLogHandler`).
package enum TerminalText {
    /// `text` with control and bidi-override characters escaped.
    package static func safe(_ text: String) -> String {
        var safe = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || isBidiOverride(scalar.value) {
                safe += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                safe.unicodeScalars.append(scalar)
            }
        }
        return safe
    }

    /// The embedding, override and isolate controls that reorder the text shown after them.
    static func isBidiOverride(_ value: UInt32) -> Bool {
        (0x202A ... 0x202E).contains(value) || (0x2066 ... 0x2069).contains(value)
    }
}

/// Text from outside (a key or value from the configuration file, a pasted link, a URL) as a
/// message quotes it: cut to 80 Unicode scalars with its full length, so a megabyte never
/// becomes a megabyte on standard error or in the log. Counted in scalars, not characters: one
/// character can be a megabyte of combining marks.
package enum Echo {
    /// `text`, cut: `abc… (1048576 characters)`.
    package static func cut(_ text: some StringProtocol, limit: Int = 80) -> String {
        let count = text.unicodeScalars.count
        guard count > limit else { return String(text) }
        return prefix(text, limit) + "… (\(count) characters)"
    }

    /// `text` in single quotes, cut: `'abc…' (1048576 characters)`.
    package static func quoted(_ text: some StringProtocol, limit: Int = 80) -> String {
        let count = text.unicodeScalars.count
        guard count > limit else { return "'\(text)'" }
        return "'" + prefix(text, limit) + "…' (\(count) characters)"
    }

    private static func prefix(_ text: some StringProtocol, _ limit: Int) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit)))
    }
}
