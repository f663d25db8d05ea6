import DBus
import Glibc
import Testing

@Suite("D-Bus values over a real dbus-daemon")
struct DBusValueRoundTripTests {
    static let samples: [DBusValue] = [
        .byte(0), .byte(255), .boolean(true), .boolean(false),
        .int16(-32768), .uint16(65535), .int32(Int32.min), .uint32(UInt32.max),
        .int64(Int64.min), .uint64(UInt64.max), .double(-1.5e300), .double(0.1),
        .string(""), .string("heart rate ❤ 心拍"), .objectPath("/org/bluez/hci0/dev_F0_1D_2E_3C_4B_5A"),
        .objectPath("/"), .signature("a{oa{sa{sv}}}"),
        .bytes([]), .bytes([0x10, 0x4E, 0xD2, 0x02, 0xC8, 0x02]), .bytes(Array(0 ... 255)),
        .array(elementType: "s", []), .array(elementType: "s", [.string("a"), .string("b")]),
        .array(elementType: "ai", [.array(elementType: "i", [.int32(1)]), .array(elementType: "i", [])]),
        .structure([.string("x"), .int32(1), .structure([.boolean(true)])]),
        .variant(.variant(.uint16(7))),
        .properties(["UUIDs": .strings(["0000180d-0000-1000-8000-00805f9b34fb"]), "RSSI": .int16(-60), "Connected": .boolean(true)]),
        .dictionary(
            keyType: "o", valueType: "a{sa{sv}}",
            [
                DBusDictionaryEntry(
                    key: .objectPath("/org/bluez/hci0"),
                    value: .interfaces([
                        "org.bluez.Adapter1": ["Powered": .boolean(true), "Address": .string("00:11:22:33:44:55")],
                        "org.freedesktop.DBus.Properties": [:],
                    ])),
                DBusDictionaryEntry(key: .objectPath("/org/bluez/hci0/dev_A"), value: .interfaces([:])),
            ]),
        .dictionary(keyType: "y", valueType: "ay", []),
    ]

    @Test("round-trips every basic type and nested containers such as a{oa{sa{sv}}} unchanged")
    func roundTrip() async throws {
        let fixture = try await BusFixture.start()
        await fixture.server.export("/test", [DBusExportedInterface(BusFixture.testInterface)])
        for value in Self.samples {
            let reply = try await fixture.client.call(
                destination: fixture.server.uniqueName, path: "/test", interface: "org.example.Test",
                member: "Echo", [.variant(value)])
            #expect(reply == [.variant(value)], "\(value.signature)")
        }
    }

    @Test("passes a Unix file descriptor that the receiver can read from")
    func unixFileDescriptor() async throws {
        let fixture = try await BusFixture.start()
        await fixture.server.export("/test", [DBusExportedInterface(BusFixture.testInterface)])
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        let writeEnd = DBusFileDescriptor(takingOwnershipOf: fds[1])
        let reply = try await fixture.client.call(
            destination: fixture.server.uniqueName, path: "/test", interface: "org.example.Test",
            member: "Echo", [.variant(.unixFD(writeEnd))])
        let received = try #require(reply.first?.fileDescriptor)
        #expect(received.rawValue != writeEnd.rawValue, "the receiver gets its own descriptor")
        let message = Array("frame".utf8)
        #expect(write(received.rawValue, message, message.count) == message.count)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(fds[0], &buffer, 16) == message.count)
        #expect(Array(buffer.prefix(message.count)) == message)
        close(fds[0])
    }

    @Test("refuses values libdbus would reject instead of crashing")
    func refusesInvalidValues() async throws {
        let fixture = try await BusFixture.start()
        let invalid: [DBusValue] = [
            .string("nul\u{0}inside"),
            .array(elementType: "s", [.int32(1)]),
            .structure([]),
        ]
        for value in invalid {
            let error = await #expect(throws: DBusError.self) {
                try await fixture.client.call(
                    destination: fixture.server.uniqueName, path: "/test", interface: "org.example.Test",
                    member: "Echo", [.variant(value)])
            }
            #expect(error?.name == DBusError.Name.invalidArgs)
        }
    }

    @Test("validates signatures and object paths given as text from outside")
    func validatesText() {
        func signature(_ text: String) -> DBusSignature? { DBusSignature(text) }
        func path(_ text: String) -> DBusObjectPath? { DBusObjectPath(text) }
        #expect(signature("a{oa{sa{sv}}}") != nil)
        #expect(signature("a{vs}") == nil)
        #expect(signature("a{s}") == nil)
        #expect(signature("()") == nil)
        #expect(signature("(i") == nil)
        #expect(signature("a{sv}ay")?.completeTypes == ["a{sv}", "ay"])
        #expect(path("/org/bluez/hci0") != nil)
        #expect(path("/org/") == nil)
        #expect(path("org") == nil)
        #expect(path("/a-b") == nil)
        #expect(DBusObjectPath.root.appending("dev F0:1D") == path("/dev_F0_1D"))
    }
}
