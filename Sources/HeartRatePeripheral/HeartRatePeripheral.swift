import ArgumentParser
import BlueZ
import DBus
import Foundation

/// `edge-gateway-peripheral`: a heart-rate strap made of a real bluetoothd and a Bluetooth
/// controller (in the test tier, a virtual one from `btvirt`). It registers a GATT
/// application, an advertisement and a Just Works pairing agent, and notifies a scripted sequence of
/// 0x2A37 frames to whoever subscribes. It proves our D-Bus export code against the real
/// daemon and gives `make test-bluez` a strap whose every frame is known.
@main
struct HeartRatePeripheral: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edge-gateway-peripheral",
        abstract: "Act as a BLE heart-rate strap on a BlueZ adapter, notifying scripted frames.")

    @Option(help: "The adapter to advertise on.")
    var adapter = "hci1"

    @Option(help: "The frame script: one 0x2A37 value per line, as hex bytes.")
    var frames: String

    @Option(help: "The advertised local name.")
    var name = "EGW Test Strap"

    @Option(help: "Milliseconds between notifications.")
    var intervalMs = 500

    @Option(help: "The script line (0-based) to send first, to continue a stream after a restart.")
    var startIndex = 0

    @Flag(help: "Start the script over after its last frame.")
    var loop = false

    func validate() throws {
        guard intervalMs >= 10 else { throw ValidationError("--interval-ms must be at least 10.") }
        guard startIndex >= 0 else { throw ValidationError("--start-index cannot be negative.") }
    }

    func run() async throws {
        let script = try FrameScript(text: String(contentsOfFile: frames, encoding: .utf8))
        guard startIndex < script.frames.count else {
            throw ValidationError("--start-index \(startIndex) is past the script's \(script.frames.count) frames.")
        }
        let connection = try await DBusConnection.connect(.system)
        let adapterPath = BlueZName.root.appending(adapter)
        let sender = FrameSender(
            script: script, startIndex: startIndex, interval: .milliseconds(intervalMs), loops: loop,
            send: { await GattApplication.notify($0, on: connection) })
        let application = GattApplication(connection: connection, bodyLocation: 1, batteryPercent: 87) { event in
            if case .measurementNotifying(let on) = event { await sender.setNotifying(on) }
        }
        let advertisement = Advertisement(connection: connection, localName: name)
        await application.export()
        await advertisement.export()
        let registration = BlueZRegistration(connection: connection, adapterPath: adapterPath)
        try await registration.keepRegistered {
            PeripheralLog.event("ready", "\"adapter\":\"\(adapter)\",\"frames\":\(script.frames.count)")
        }
    }
}
