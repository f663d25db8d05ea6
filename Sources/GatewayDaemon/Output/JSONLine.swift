/// One JSON object on one line, keys in the order they were added.
///
/// The documented output formats fix their key order; `JSONEncoder` cannot promise one, so
/// machine-readable lines are built with this small writer instead.
public struct JSONLine {
    /// A JSON value. `.number` carries text already formatted as a JSON number.
    public enum Value {
        case string(String)
        case integer(Int)
        case boolean(Bool)
        case number(String)
        case array([Value])
        case null
    }

    private var members: [String] = []

    /// An empty object.
    public init() {}

    /// Appends `"key":value`.
    public mutating func add(_ key: String, _ value: Value) {
        members.append(Self.quoted(key) + ":" + Self.render(value))
    }

    /// The object as text, without a newline.
    public var text: String { "{" + members.joined(separator: ",") + "}" }

    private static func render(_ value: Value) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .integer(let number): String(number)
        case .boolean(let value): value ? "true" : "false"
        case .number(let text): text
        case .array(let values): "[" + values.map(render).joined(separator: ",") + "]"
        case .null: "null"
        }
    }

    /// A JSON string literal, escaping quotes, backslashes and control characters (RFC 8259 §7),
    /// and also DEL, the C1 controls and bidi overrides, which JSON allows raw but a terminal
    /// showing the line (or `journalctl`) would act on.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F ... 0x9F).contains(scalar.value) || TerminalText.isBidiOverride(scalar.value):
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
