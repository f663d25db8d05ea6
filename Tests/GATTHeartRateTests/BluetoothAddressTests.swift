import Foundation
import GATTHeartRate
import Testing

@Suite("Bluetooth addresses")
struct BluetoothAddressTests {
    @Test("parses colon, dash and BlueZ-path spellings in either case to one address")
    func parsesSpellings() throws {
        let address = try #require(BluetoothAddress("F0:1D:2E:3C:4B:5A"))
        #expect(BluetoothAddress("f0:1d:2e:3c:4b:5a") == address)
        #expect(BluetoothAddress("F0-1D-2E-3C-4B-5A") == address)
        #expect(BluetoothAddress("F0_1D_2E_3C_4B_5A") == address)
        #expect(address.description == "F0:1D:2E:3C:4B:5A")
    }

    @Test("every byte value is written as two upper-case digits, and the text parses back to the address")
    func textRoundTrips() throws {
        for first in 0 ... 255 {
            let bytes = [UInt8(first), UInt8(255 - first), 0x00, 0x0A, 0xA0, 0xFF]
            let address = try #require(BluetoothAddress(bytes: bytes))
            #expect(address.description == bytes.map { String(format: "%02X", $0) }.joined(separator: ":"))
            #expect(BluetoothAddress(address.description) == address)
        }
    }

    @Test(
        "refuses malformed addresses",
        arguments: ["", "F0:1D:2E:3C:4B", "F0:1D:2E:3C:4B:5A:00", "F0:1D:2E:3C:4B:5", "G0:1D:2E:3C:4B:5A", "F01D2E3C4B5A", "F0::1D:2E:3C:4B"])
    func refusesMalformed(text: String) {
        #expect(BluetoothAddress(text) == nil)
    }

    @Test("refuses a malformed address inside a stored JSON document with a clear message")
    func refusesMalformedJSON() {
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([BluetoothAddress].self, from: Data(#"["nonsense"]"#.utf8))
        }
        // The context's own text: how DecodingError describes itself differs between toolchains.
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription.contains("'nonsense' is not a Bluetooth address"))
    }
}
