/// Exporting objects on a connection (the server side, used by `BlueZSimulator` and by agents).
extension DBusConnection {
    /// Serves `org.freedesktop.DBus.ObjectManager` at `root`: `GetManagedObjects` lists every
    /// object below it, and exports/unexports below it emit `InterfacesAdded`/`Removed`.
    package func addObjectManager(at root: DBusObjectPath) async {
        let state = state
        await onLoop { _ in state.objects.addManager(at: root) }
    }

    /// Exports `interfaces` on the object at `path` (adding to any it already has).
    package func export(_ path: DBusObjectPath, _ interfaces: [DBusExportedInterface]) async {
        let state = state
        await onLoop { loop in state.objects.export(path, interfaces, loop: loop) }
    }

    /// Removes the named interfaces from `path`, or the whole object when `interfaces` is nil.
    package func unexport(_ path: DBusObjectPath, interfaces: [String]? = nil) async {
        let state = state
        await onLoop { loop in state.objects.unexport(path, interfaces, loop: loop) }
    }

    /// Updates property values and emits `PropertiesChanged` for those that changed (or for all
    /// of them with `alwaysEmit`, for values that are events, like a notified `Value`).
    package func setProperties(
        _ path: DBusObjectPath, interface: String, _ changes: [String: DBusValue], invalidated: [String] = [],
        alwaysEmit: Bool = false
    ) async {
        let state = state
        await onLoop { loop in
            state.objects.setProperties(
                path, interface: interface, changes, invalidated: invalidated, alwaysEmit: alwaysEmit, loop: loop)
        }
    }

    /// Emits a signal from `path`.
    package func emit(_ path: DBusObjectPath, interface: String, member: String, _ body: [DBusValue] = []) async throws(DBusError) {
        try await send(.signal(path: path, interface: interface, member: member, body: body))
    }
}
