import BlueZSimulator
import DBus
import Foundation
@testable import GatewayPipeline
import GatewayTestSupport
import Testing

/// inotify on a real directory, read on a real bus connection's thread (a private
/// `dbus-daemon`): the fleet's only way to hear of a binding change without polling.
@Suite("FileChangeWatch")
struct FileChangeWatchTests {
    @Test("replacing the watched file by rename, writing it in place and removing it each raise the signal")
    func watchedFileChanges() async throws {
        let directory = try TemporaryDirectory("file-watch")
        defer { directory.remove() }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let connection = try await DBusConnection.connect(.address(bus.address))
        defer { connection.close() }
        let signal = ChangeSignal()
        let watch = try #require(await FileChangeWatch.start(directory: directory.path, names: ["sensors.json"], signal: signal, on: connection))
        defer { watch.cancel() }

        try Data("[]".utf8).write(to: URL(fileURLWithPath: directory.file("sensors.json.tmp")))
        #expect(rename(directory.file("sensors.json.tmp"), directory.file("sensors.json")) == 0)
        #expect(await signal.wait(upTo: .seconds(60)))

        try Data("[1]".utf8).write(to: URL(fileURLWithPath: directory.file("sensors.json")))
        #expect(await signal.wait(upTo: .seconds(60)))

        try FileManager.default.removeItem(atPath: directory.file("sensors.json"))
        #expect(await signal.wait(upTo: .seconds(60)))
    }

    @Test("a directory that does not exist gives no watch (the fleet then reads the file now and then)")
    func missingDirectory() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let connection = try await DBusConnection.connect(.address(bus.address))
        defer { connection.close() }
        let watch = await FileChangeWatch.start(directory: "/nonexistent/edge-gateway", names: ["sensors.json"], signal: ChangeSignal(), on: connection)
        #expect(watch == nil)
    }
}
