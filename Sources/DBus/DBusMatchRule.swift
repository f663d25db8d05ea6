import Glibc

/// Which signals a subscriber wants: the bus delivers them, and the connection routes each
/// to the subscribers whose rule it matches.
package struct DBusMatchRule: Hashable, Sendable, CustomStringConvertible {
    /// A well-known (`org.bluez`) or unique (`:1.7`) sender name.
    package var sender: String?
    /// The signal's interface (`org.freedesktop.DBus.Properties`); `nil` matches any.
    package var interface: String?
    /// The signal's name (`PropertiesChanged`); `nil` matches any.
    package var member: String?
    /// Exactly this object path, not the paths below it (use `pathNamespace` for those).
    package var path: DBusObjectPath?
    /// Matches `path` and every path below it.
    package var pathNamespace: DBusObjectPath?
    /// The first argument, when it is a string (`NameOwnerChanged` names, `PropertiesChanged`
    /// interfaces).
    package var arg0: String?

    /// A rule for signals; unset fields match anything.
    package init(
        sender: String? = nil, interface: String? = nil, member: String? = nil,
        path: DBusObjectPath? = nil, pathNamespace: DBusObjectPath? = nil, arg0: String? = nil
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arg0 = arg0
    }

    /// The rule in the bus's `AddMatch` syntax.
    package var description: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            guard let value else { return }
            let escaped = value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#)
            parts.append("\(key)='\(escaped)'")
        }
        add("sender", sender)
        add("interface", interface)
        add("member", member)
        add("path", path?.rawValue)
        add("path_namespace", pathNamespace?.rawValue)
        add("arg0", arg0)
        return parts.joined(separator: ",")
    }

    /// Whether `message` satisfies the rule. `owner` resolves a well-known sender name to the
    /// unique name that currently owns it (signals always carry the unique name).
    func matches(_ message: DBusMessage, owner: (String) -> String?) -> Bool {
        guard message.kind == .signal else { return false }
        if sender != nil {
            guard let expected = expectedSender(owner: owner), message.sender == expected else { return false }
        }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let path, message.path != path { return false }
        if let pathNamespace {
            guard let messagePath = message.path, messagePath.isDescendant(of: pathNamespace) else { return false }
        }
        if let arg0 {
            guard case .string(let first)? = message.body.first, first == arg0 else { return false }
        }
        return true
    }

    /// Whether a signal from the unique name `sender` may match: false when the rule wants
    /// another sender. The test a signal passes before it is decoded.
    func mayMatch(sender: UnsafePointer<CChar>, owner: (String) -> String?) -> Bool {
        guard self.sender != nil else { return true }
        guard let expected = expectedSender(owner: owner) else { return false }
        return expected.withCString { strcmp($0, sender) } == 0
    }

    /// The unique name signals must come from: the rule's own when it names one (or the bus),
    /// else the current owner of its well-known name (`nil` while nobody owns it).
    func expectedSender(owner: (String) -> String?) -> String? {
        guard let sender else { return nil }
        return sender.hasPrefix(":") || sender == "org.freedesktop.DBus" ? sender : owner(sender)
    }
}
