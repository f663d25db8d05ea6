import BlueZ
import BlueZSimulator
import CLinux
import DBus
import Glibc

/// Method calls per second through the D-Bus layer and a real dbus-daemon, and whether the
/// heap grows with them: 20,000 echo calls of an `a{sv}` after a warm-up, with the heap in use
/// (`mallinfo2`) compared before and after. Flat heap = libdbus messages, pending calls and
/// their Swift values are all released.
enum DBusCallBenchmark {
    static func run() async {
        do {
            try await measure()
        } catch {
            print("dbus: failed: \(error)")
        }
    }

    private static func measure() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let server = try await DBusConnection.connect(.address(bus.address))
        let client = try await DBusConnection.connect(.address(bus.address))
        await server.export(
            "/bench",
            [
                DBusExportedInterface(
                    DBusInterfaceDescription(
                        name: "org.example.Bench",
                        methods: [
                            DBusMethodDescription("Echo", inputs: [DBusArgument("value", "a{sv}")], outputs: [DBusArgument("value", "a{sv}")]) { $0.arguments }
                        ]))
            ])
        let argument = DBusValue.properties([
            "Value": .bytes([0x16, 0x48, 0x00, 0x04]), "Notifying": .boolean(true), "UUID": .string("00002a37-0000-1000-8000-00805f9b34fb"),
        ])
        func calls(_ count: Int) async throws {
            for _ in 0 ..< count {
                _ = try await client.call(destination: server.uniqueName, path: "/bench", interface: "org.example.Bench", member: "Echo", [argument])
            }
        }
        try await calls(2_000)
        let heapBefore = mallinfo2().uordblks
        let clock = ContinuousClock()
        let start = clock.now
        try await calls(20_000)
        let elapsed = start.duration(to: clock.now).seconds
        let heapAfter = mallinfo2().uordblks
        print(
            "dbus: 20000 echo calls (a{sv}) in \(DecodeBenchmark.format(elapsed, 3)) s = \(Int(20_000 / elapsed)) calls/s; heap in use \(heapBefore / 1024) KiB before, \(heapAfter / 1024) KiB after (\(Int(heapAfter) - Int(heapBefore)) bytes difference)"
        )
        client.close()
        server.close()
    }
}
