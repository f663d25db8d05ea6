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

    /// Turns an adapter (hci0 unless named) off or on, as rfkill or a USB reset would. Off
    /// drops every link through it and stops its discovery.
    package func setAdapterPowered(_ powered: Bool, adapter: String = "hci0") async {
        await applyPowered(powered, on: adapter)
    }

    /// Plugs an adapter in (`InterfacesAdded`), powered, with the devices stored on it.
    package func addAdapter(_ adapter: SimulatedAdapter) async {
        guard adapters[adapter.name] == nil else { return }
        adapters[adapter.name] = AdapterState(adapter: adapter)
        await exportAdapter(adapter.name)
    }

    /// Unplugs an adapter: its links drop, its discovery ends, and it and its device objects go
    /// (`InterfacesRemoved`); bonds stored on it come back if it is plugged in again.
    package func removeAdapter(_ name: String) async {
        // Gone before the first suspension: a connect that arrives meanwhile must not link through it.
        guard let state = adapters.removeValue(forKey: name) else { return }
        state.discoveryTask?.cancel()
        for address in straps.keys where straps[address]!.via == name { await disconnect(address) }
        for address in straps.keys.sorted() where straps[address]!.objects.contains(name) {
            straps[address]?.objects.remove(name)
            await connection?.unexport(Self.devicePath(address, on: name))
        }
        await connection?.unexport(state.adapter.path)
    }
}
