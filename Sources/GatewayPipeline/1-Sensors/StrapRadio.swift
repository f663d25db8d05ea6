import GATTHeartRate

/// The Bluetooth stack as a `SensorSupervisor` sees it: which adapters are usable, how well
/// each hears the strap, is the strap known, find it. `BlueZStrapRadio` is the real one, over bluetoothd's D-Bus API; tests use an
/// in-memory one, so the supervisor's state machine (backoff, stall, flapping, connection
/// slots, adapter loss) is tested without a bus.
///
/// Failures are thrown as `SupervisorError`, already judged transient or not.
package protocol StrapRadio: Sendable {
    /// Every adapter the stack has now, powered or not; nil while bluetoothd is not running.
    func adapters() async -> [RadioAdapter]?
    /// Returns once the adapters (their set or their power) differ from `current`, or after
    /// `timeout`.
    func adaptersChange(from current: [RadioAdapter]?, timeout: Duration) async
    /// How well `adapter` hears `strap`, and whether it holds the strap's bond.
    func sighting(of strap: BluetoothAddress, on adapter: String) async -> StrapSighting
    /// Powers `adapter` on (only when `[bluetooth]` allows the gateway to).
    func powerOn(_ adapter: String) async throws
    /// The link to a strap the stack already knows, or nil.
    func knownLink(to strap: BluetoothAddress, on adapter: String) async -> (any StrapLink)?
    /// Discovers the strap (sharing discovery with the other supervisors) for up to `timeout`.
    func discover(_ strap: BluetoothAddress, on adapter: String, timeout: Duration) async throws -> any StrapLink
}

/// One strap's connection, as one supervisor cycle uses it: connect, wait for its services,
/// read what it says about itself, take its heart-rate notifications, disconnect.
package protocol StrapLink: Sendable {
    /// Connects (within the supervisor's connection slot).
    func connect() async throws
    /// Whether the strap's GATT services were resolved within `timeout`.
    func servicesResolved(within timeout: Duration) async -> Bool
    /// Battery, body location, manufacturer and model, as far as the strap offers them.
    func details() async -> DeviceDetails
    /// Starts the 0x2A37 notifications, handing each frame to `deliver` with how many
    /// nanoseconds ago it arrived (on the thread that reads it: no task is woken per frame); nil
    /// when the strap has no such characteristic after `timeout`.
    func heartRateNotifications(
        within timeout: Duration, deliver: @escaping @Sendable (_ frame: [UInt8], _ arrivedNanosecondsAgo: UInt64) -> Void
    ) async throws -> StrapNotifications?
    /// Drops the connection; failures are ignored (the link may be gone already).
    func disconnect() async
}

/// A running subscription: it ends when the link drops or `stop` is called.
package struct StrapNotifications: Sendable {
    /// Returns once the subscription has ended.
    package let ended: @Sendable () async -> Void
    /// Ends the subscription (the stall check's way out).
    package let stop: @Sendable () -> Void
    /// How late a frame may be handed on after it came (a gathered socket's wait for its
    /// gather), which the stall deadline allows on top of the timeout.
    package let readLag: Duration

    /// A subscription whose end `ended` waits for, ended early by `stop`.
    package init(ended: @escaping @Sendable () async -> Void, stop: @escaping @Sendable () -> Void, readLag: Duration = .zero) {
        self.ended = ended
        self.stop = stop
        self.readLag = readLag
    }
}
