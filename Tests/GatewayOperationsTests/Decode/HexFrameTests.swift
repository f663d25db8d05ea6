@testable import GatewayOperations
import Testing

@Suite("Hex frame parsing")
struct HexFrameTests {
    @Test(
        "reads the spellings btmon, gatttool and nRF Connect print as the same bytes",
        arguments: [
            "104ed202c802", "10 4e d2 02 c8 02", "10:4e:d2:02:c8:02", "10-4E-D2-02-C8-02",
            "0x10 0x4e 0xd2 0x02 0xc8 0x02", "0x104ed202c802", "  10 4e\td2 02 c8 02  ", "10,4e,d2,02,c8,02",
        ])
    func readsSpellings(text: String) throws {
        #expect(try HexFrame.parse(text) == [0x10, 0x4E, 0xD2, 0x02, 0xC8, 0x02])
    }

    @Test("reads an empty text as an empty frame")
    func readsEmpty() throws {
        #expect(try HexFrame.parse("") == [])
    }

    @Test("refuses non-hex characters and names the first one")
    func refusesNonHex() {
        let error = #expect(throws: HexFrameError.self) { try HexFrame.parse("10 4g") }
        #expect(error?.message == "'g' in '10 4g' is not a hex digit (0-9, a-f)")
        #expect(error?.code.rawValue == "frame.invalid-hex")
    }

    @Test(
        "refuses an odd number of digits, overall or in one separated byte",
        arguments: ["123", "10 4 e2", "1:02"])
    func refusesOddDigits(text: String) {
        #expect(throws: HexFrameError.self) { try HexFrame.parse(text) }
    }

    @Test("formats bytes as lower-case hex without separators")
    func formats() {
        #expect(HexFrame.format([0x10, 0x0A, 0xFF]) == "100aff")
    }
}
