/// A D-Bus object path such as `/org/bluez/hci0/dev_F0_1D_2E_3C_4B_5A`.
///
/// Validated on construction: libdbus aborts the process on an invalid path, so a path built
/// from outside data (a device address, a peer's reply) must be checked before it reaches C.
package struct DBusObjectPath: Hashable, Sendable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The path text.
    package let rawValue: String

    /// A path, or `nil` unless it is `/` or `/`-separated non-empty `[A-Za-z0-9_]` elements.
    package init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        rawValue = text
    }

    /// A path libdbus has already checked: it validates every message it receives, so the paths
    /// read back from one need not be checked again (a check per signal, at hundreds a second).
    init(receivedFromLibdbus text: String) {
        rawValue = text
    }

    /// A literal path; a malformed literal is a programming error.
    package init(stringLiteral value: String) {
        guard let path = DBusObjectPath(value) else { preconditionFailure("invalid object path literal \(value)") }
        self = path
    }

    /// The root path `/`.
    package static let root: DBusObjectPath = "/"

    /// The path of a child element; `element` is sanitised to the allowed characters.
    package func appending(_ element: String) -> DBusObjectPath {
        let clean = String(element.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
        let text = (rawValue == "/" ? "" : rawValue) + "/" + (clean.isEmpty ? "_" : clean)
        return DBusObjectPath(text)!
    }

    /// Whether this path is `ancestor` or lies below it.
    package func isDescendant(of ancestor: DBusObjectPath) -> Bool {
        ancestor.rawValue == "/" || rawValue == ancestor.rawValue || rawValue.hasPrefix(ancestor.rawValue + "/")
    }

    /// The last element (`hci0` for `/org/bluez/hci0`).
    package var lastElement: String {
        String(rawValue.split(separator: "/").last ?? "")
    }

    /// The path text (`/org/bluez/hci0`), as logs print it.
    package var description: String { rawValue }

    /// Orders paths by their text, so listings (and `GetManagedObjects`) come out stable.
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    static func isValid(_ text: String) -> Bool {
        guard text.first == "/" else { return false }
        if text == "/" { return true }
        let elements = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        return elements.allSatisfy { element in
            !element.isEmpty
                && element.utf8.allSatisfy { byte in
                    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                        || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
                }
        }
    }
}
