@testable import OutputFormats
import Testing

@Suite("JSON lines")
struct JSONLineTests {
    @Test("keeps keys in the order they were added and renders every value kind")
    func keyOrder() {
        var line = JSONLine()
        line.add("b", .integer(-1))
        line.add("a", .string("x"))
        line.add("n", .null)
        line.add("v", .array([.number("1.5"), .integer(2)]))
        #expect(line.text == #"{"b":-1,"a":"x","n":null,"v":[1.5,2]}"#)
    }

    @Test("escapes quotes, backslashes and control characters")
    func escapes() {
        #expect(JSONWriter.quoted("a\"b\\c\nd\u{01}é") == #""a\"b\\c\nd\u0001é""#)
    }
}
