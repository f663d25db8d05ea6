/// Text from outside (a strap's advertised name, its GATT strings) made safe for a terminal:
/// every control character (C0, DEL, C1) and every bidirectional override is shown as
/// `\u{XX}` instead of being sent, so a strap named `\e]0;PWNED\a\e[2J` cannot retitle or
/// clear the technician's terminal, and a right-to-left override cannot disguise a name.
/// JSON output escapes them already (`JSONLine`); logs do too (`SystemdLogHandler`).
public enum TerminalText {
    /// `text` with control and bidi-override characters escaped.
    public static func safe(_ text: String) -> String {
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
