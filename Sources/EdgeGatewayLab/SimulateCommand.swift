import ArgumentParser
import BlueZSimulator
import Foundation
import GatewayCommandLine
import OutputFormats

/// `edge-gateway-lab simulate`: a private bus with a simulated bluetoothd and heart-rate straps,
/// for trying the gateway (or any BlueZ client) on a machine without Bluetooth.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a simulated bluetoothd with heart-rate straps on a private D-Bus bus.",
        discussion: """
            Starts a private dbus-daemon (Debian package dbus-daemon) and a simulated bluetoothd \
            (bluez 5.66 behaviour) on it, with the straps already known to the adapter. The first \
            line printed is DBUS_SYSTEM_BUS_ADDRESS=…: export it, and BlueZ clients (the gateway, \
            busctl, bluetoothctl's D-Bus peers) use the simulator as the system bus. Runs until \
            SIGINT or SIGTERM, then removes the bus.

            Example:
              edge-gateway-lab simulate --sensors 3 > sim.txt &
              export "$(head -1 sim.txt)"
              busctl --system tree org.bluez
            """
    )

    @Option(help: "How many heart-rate straps to simulate.")
    var sensors = 3

    @Option(help: "Milliseconds between a strap's notifications.")
    var intervalMs = 1000

    @Option(help: "How many adapters the simulated box has (hci0, hci1 …); the straps are known to hci0.")
    var adapters = 1

    @Option(help: ArgumentHelp("The links each adapter holds before it aborts a connect, as a full controller does (default: no limit).", valueName: "n"))
    var maxConnections: Int?

    @Flag(help: "Print only the bus address line, then one strap address per line.")
    var printAddress = false

    @Option(
        help: ArgumentHelp(
            "Every 200 ms, rewrite this file with how many notifications the straps have delivered so far, all straps together (a power-cut test reads it after the cut).",
            valueName: "file"))
    var sentFile: String?

    func validate() throws {
        guard (1 ... 500).contains(sensors) else { throw ValidationError("--sensors must be between 1 and 500.") }
        guard (5 ... 60_000).contains(intervalMs) else { throw ValidationError("--interval-ms must be between 5 and 60000.") }
        guard (1 ... 16).contains(adapters) else { throw ValidationError("--adapters must be between 1 and 16.") }
        if let maxConnections, !(1 ... 100).contains(maxConnections) {
            throw ValidationError("--max-connections must be between 1 and 100.")
        }
    }

    func run() async throws {
        let bus: PrivateBus
        do {
            bus = try PrivateBus()
        } catch {
            StandardError.writeLine("edge-gateway-lab simulate: \(error)")
            throw ExitStatus.unavailable
        }
        let straps = SimulatedStrap.fleet(count: sensors, notificationInterval: .milliseconds(intervalMs))
        let simulator = BluetoothdSimulator(
            busAddress: bus.address, straps: straps, devicesKnownAtStart: true,
            adapters: (0 ..< adapters).map { SimulatedAdapter(name: "hci\($0)", maxConnections: maxConnections) })
        try await simulator.start()

        StandardOutput.writeLine("DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)")
        for strap in straps {
            StandardOutput.writeLine(
                printAddress
                    ? strap.address.description
                    : "strap \(strap.address)  \(strap.name)  RSSI \(strap.rssi) dBm  battery \(strap.batteryPercent) %")
        }
        if !printAddress {
            StandardOutput.writeLine("simulating bluetoothd with \(sensors) strap(s) and \(adapters) adapter(s); Ctrl-C to stop")
        }

        let counting = sentFile.map { path in
            Task {
                while !Task.isCancelled {
                    var sent = 0
                    for strap in straps { sent += await simulator.notificationsSent(to: strap.address) }
                    try? Data("\(sent)\n".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
        }
        _ = await TerminationSignals.wait()
        counting?.cancel()
        await simulator.stop()
        bus.stop()
    }
}
