import BlueZ
import DBus
import GATTHeartRate

/// Fault injection: the field problems of docs/ble-heart-rate.md, on demand.
extension BluetoothdSimulator {
    /// Drops the link as interference or distance would (`Connected` false, GATT objects gone,
    /// notify sessions forgotten). The strap stays in range, so reconnecting works.
    package func dropLink(_ address: BluetoothAddress) async {
        guard straps[address]?.connected == true else { return }
        await disconnect(address)
    }

    /// Makes the next `Connect()` to the strap fail with `error`
    /// (e.g. `org.bluez.Error.Failed: le-connection-abort-by-local`).
    package func failNextConnect(_ address: BluetoothAddress, with error: DBusError) {
        straps[address]?.failNextConnect = error
    }

    /// Reports `ServicesResolved` before the strap's GATT objects, which follow `lag` later, as
    /// bluez 5.66 sometimes does (seen 4 s apart against a real bluetoothd).
    package func exportGattAfterServicesResolved(_ address: BluetoothAddress, lag: Duration) {
        straps[address]?.gattLag = lag
    }

    /// Takes the strap out of (or back into) radio range: out of range, connects fail and
    /// discovery does not find it.
    package func setInRange(_ address: BluetoothAddress, _ inRange: Bool) async {
        straps[address]?.inRange = inRange
        if !inRange { await dropLink(address) }
    }

    /// Holds back (or resumes) the strap's notifications while the link stays up: a strap
    /// that connects but never notifies.
    package func stallNotifications(_ address: BluetoothAddress, _ stalled: Bool) {
        straps[address]?.stalled = stalled
    }

    /// Queues frames (any bytes: scripted sequences, malformed frames) to be sent at the
    /// strap's normal cadence, once a client subscribes, before its generated signal resumes.
    package func queueFrames(_ frames: [[UInt8]], for address: BluetoothAddress) {
        straps[address]?.scripted.append(contentsOf: frames)
    }

    /// Sends `count` notifications at once, as fast as the bus takes them.
    package func notificationStorm(_ address: BluetoothAddress, count: Int) async {
        guard var signal = straps[address]?.strap.signal else { return }
        for _ in 0 ..< count {
            await deliver(signal.next(seconds: 0.05).encoded(), to: address)
        }
        straps[address]?.strap.signal = signal
    }

    /// Turns the adapter off or on, as rfkill or a USB reset would. Off drops every link and
    /// stops discovery.
    package func setAdapterPowered(_ powered: Bool) async {
        await applyPowered(powered)
    }
}
