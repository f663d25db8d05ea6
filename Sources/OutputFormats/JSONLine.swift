/// One JSON object on one line, keys in the order they were added, written by `JSONWriter`
/// with terminal-safe escaping: the machine-readable lines of the CLI (`--json`, `queue
/// export`), whose documented formats fix their key order, which `JSONEncoder` cannot promise.
package struct JSONLine {
    /// A JSON value. `.number` carries text already formatted as a JSON number.
    package enum Value {
        case string(String)
        case integer(Int)
        case boolean(Bool)
        case number(String)
        case array([Value])
        case object(JSONLine)
        case null

        /// A string or null.
        package static func optional(_ text: String?) -> Value { text.map { .string($0) } ?? .null }
        /// An integer or null.
        package static func optional(_ number: Int?) -> Value { number.map { .integer($0) } ?? .null }
        /// An array of objects.
        package static func objects(_ lines: [JSONLine]) -> Value { .array(lines.map { .object($0) }) }
    }

    private var members: [(key: String, value: Value)] = []

    /// An empty object.
    package init() {}

    /// Appends `"key":value`.
    package mutating func add(_ key: String, _ value: Value) {
        members.append((key, value))
    }

    /// The object as text, without a newline.
    package var text: String {
        var writer = JSONWriter(escaping: .terminalSafe, capacity: 64 * members.count + 2)
        write(to: &writer)
        return writer.text
    }

    private func write(to writer: inout JSONWriter) {
        writer.beginObject()
        for member in members {
            writer.escapedKey(member.key)
            Self.write(member.value, to: &writer)
        }
        writer.endObject()
    }

    private static func write(_ value: Value, to writer: inout JSONWriter) {
        switch value {
        case .string(let text): writer.string(text)
        case .integer(let number): writer.integer(number)
        case .boolean(let value): writer.boolean(value)
        case .number(let text): writer.raw(text)
        case .array(let values):
            writer.beginArray()
            for element in values { write(element, to: &writer) }
            writer.endArray()
        case .object(let line): line.write(to: &writer)
        case .null: writer.null()
        }
    }
}
