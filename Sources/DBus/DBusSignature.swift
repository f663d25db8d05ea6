/// A D-Bus type signature (`s`, `a{sv}`, `a{oa{sa{sv}}}` …).
package struct DBusSignature: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The signature text.
    package let rawValue: String

    /// A signature, or `nil` when the text is not a sequence of complete D-Bus types.
    package init?(_ text: String) {
        var index = text.utf8.startIndex
        while index != text.utf8.endIndex {
            guard let next = Self.completeType(in: text.utf8, from: index, depth: 0) else { return nil }
            index = next
        }
        rawValue = text
    }

    init(unchecked text: String) { rawValue = text }

    /// A literal signature; a malformed literal is a programming error.
    package init(stringLiteral value: String) {
        guard let signature = DBusSignature(value) else { preconditionFailure("invalid signature literal \(value)") }
        self = signature
    }

    /// The signature text (`a{sv}`), as logs and introspection XML print it.
    package var description: String { rawValue }

    /// The complete types the signature is made of (`sa{sv}` → `s`, `a{sv}`).
    package var completeTypes: [DBusSignature] {
        var types: [DBusSignature] = []
        var index = rawValue.utf8.startIndex
        while index != rawValue.utf8.endIndex, let next = Self.completeType(in: rawValue.utf8, from: index, depth: 0) {
            types.append(DBusSignature(unchecked: String(rawValue.utf8[index ..< next])!))
            index = next
        }
        return types
    }

    /// The end of the single complete type starting at `start`, or `nil` if there is none.
    private static func completeType(
        in text: String.UTF8View, from start: String.UTF8View.Index, depth: Int
    ) -> String.UTF8View.Index? {
        guard start != text.endIndex, depth < 64 else { return nil }
        let next = text.index(after: start)
        switch text[start] {
        case UInt8(ascii: "y"), UInt8(ascii: "b"), UInt8(ascii: "n"), UInt8(ascii: "q"),
            UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "t"),
            UInt8(ascii: "d"), UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"),
            UInt8(ascii: "h"), UInt8(ascii: "v"):
            return next
        case UInt8(ascii: "a"):
            if next != text.endIndex, text[next] == UInt8(ascii: "{") {
                let keyStart = text.index(after: next)
                guard keyStart != text.endIndex, isBasic(text[keyStart]) else { return nil }
                guard let valueEnd = completeType(in: text, from: text.index(after: keyStart), depth: depth + 1),
                    valueEnd != text.endIndex, text[valueEnd] == UInt8(ascii: "}")
                else { return nil }
                return text.index(after: valueEnd)
            }
            return completeType(in: text, from: next, depth: depth + 1)
        case UInt8(ascii: "("):
            var index = next
            var fields = 0
            while index != text.endIndex, text[index] != UInt8(ascii: ")") {
                guard let end = completeType(in: text, from: index, depth: depth + 1) else { return nil }
                index = end
                fields += 1
            }
            guard index != text.endIndex, fields > 0 else { return nil }
            return text.index(after: index)
        default:
            return nil
        }
    }

    private static func isBasic(_ code: UInt8) -> Bool {
        "ybnqiuxtdsogh".utf8.contains(code)
    }
}
