import Foundation
@testable import GatewayDaemon
import GatewayTestSupport
import Testing

/// sd_notify over a real datagram socket, path and abstract.
@Suite("Operations: sd_notify")
struct SystemdNotifierTests {
    @Test("is absent without NOTIFY_SOCKET or with a name that is neither a path nor abstract")
    func absent() {
        #expect(SystemdNotifier(environment: [:]) == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": ""]) == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative/notify"]) == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "@"]) == nil)
    }

    @Test("reads the watchdog interval from WATCHDOG_USEC, unless WATCHDOG_PID names another process")
    func watchdogInterval() {
        let base = ["NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "30000000"]
        #expect(SystemdNotifier(environment: base)?.watchdogInterval == .seconds(30))
        #expect(SystemdNotifier(environment: base.merging(["WATCHDOG_PID": "\(getpid())"]) { $1 })?.watchdogInterval == .seconds(30))
        #expect(SystemdNotifier(environment: base.merging(["WATCHDOG_PID": "\(getpid() + 1)"]) { $1 })?.watchdogInterval == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/systemd/notify"])?.watchdogInterval == nil)
        #expect(SystemdNotifier(environment: base.merging(["WATCHDOG_USEC": "soon"]) { $1 })?.watchdogInterval == nil)
    }

    @Test("sends READY, STATUS (kept on one line), WATCHDOG and STOPPING datagrams to a socket path")
    func pathSocket() async throws {
        let directory = try TemporaryDirectory("notify")
        defer { directory.remove() }
        let receiver = try DatagramReceiver(name: directory.file("notify"))
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.name]))
        try notifier.ready(status: "3 straps\nstreaming")
        #expect(try await receiver.receive() == "READY=1\nSTATUS=3 straps streaming")
        try notifier.status("uploading 120 samples")
        #expect(try await receiver.receive() == "STATUS=uploading 120 samples")
        try notifier.watchdog()
        #expect(try await receiver.receive() == "WATCHDOG=1")
        try notifier.stopping()
        #expect(try await receiver.receive() == "STOPPING=1")
    }

    @Test("sends to an abstract socket named with @")
    func abstractSocket() async throws {
        let receiver = try DatagramReceiver(name: "@edge-gateway-test-\(UUID().uuidString)")
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.name]))
        try notifier.ready()
        #expect(try await receiver.receive() == "READY=1")
    }

    @Test("throws a systemd.notify-failed error when nobody listens at the socket")
    func nobodyListening() throws {
        let directory = try TemporaryDirectory("notify")
        defer { directory.remove() }
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": directory.file("absent")]))
        #expect(throws: SystemdNotifyError.self) { try notifier.watchdog() }
    }
}
