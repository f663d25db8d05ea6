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

    /// Lets the bus rest for `rest` after each turn that handed claimed values to
    /// `subscribe(toBytesOf:…)` subscribers and left the socket empty: what comes meanwhile
    /// waits in the kernel, so values that come ten times a second wake the connection's thread
    /// about once per `rest` instead of ten times. A value is then handed on up to `rest` after
    /// it came (the bus's bytes carry no arrival stamp). While a reply is due the bus is read
    /// as it comes, so no call waits for a rest; signals and calls to this connection's objects
    /// may. Zero, the default, never rests: for commands that show values as they come.
    package func restAfterPropertyBytes(for rest: Duration) async {
        await onLoop { $0.propertyBytesRest = rest }
    }
}
