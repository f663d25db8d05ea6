extension DBusConnection {
    /// Calls `deliver` with the new value of the byte-array property `property` of `interface`
    /// on the object at `path`, each time `sender` signals a `PropertiesChanged` that sets it
    /// (a BlueZ characteristic's `Value`: one signal per notification, ten a second per strap).
    ///
    /// A signal that changes that property alone, as an `ay`, is read straight out of libdbus's
    /// message and never decoded into a `DBusMessage`: the subscriber *claims* it. It still
    /// reaches `subscribe(matching:)` subscribers that may match it, unless they opted out with
    /// `includingClaimed: false`. A signal that changes more (or the property as another type)
    /// goes the usual way, and `deliver` gets the property's bytes when they are there.
    /// `deliver` runs on the connection's thread and must not block; `finished` is called when
    /// the subscription ends with the connection.
    package func subscribe(
        toBytesOf property: String, of interface: String, at path: DBusObjectPath, from sender: String,
        _ deliver: @escaping @Sendable ([UInt8]) -> Void, finished: @escaping @Sendable () -> Void
    ) async throws(DBusError) -> DBusSubscription {
        let rule = DBusMatchRule(
            sender: sender, interface: StandardInterface.properties, member: "PropertiesChanged", path: path, arg0: interface)
        return try await addMatch(rule) { state in
            state.subscribe(PropertyBytesSubscriber(rule: rule, property: property, deliver: deliver, finish: finished))
        }
    }
}
