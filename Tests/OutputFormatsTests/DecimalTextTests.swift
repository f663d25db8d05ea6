@testable import OutputFormats
import Testing

@Suite("Exact decimal text")
struct DecimalTextTests {
    @Test(
        "prints RR milliseconds to three decimals, rounding exact halves to even",
        arguments: [
            (722, "705.078"), (712, "695.312"), (768, "750.0"), (786, "767.578"),
            (1252, "1222.656"), (1107, "1081.055"), (945, "922.852"), (0, "0.0"),
            (65535, "63999.023"),
        ] as [(UInt16, String)])
    func threeDecimals(raw: UInt16, text: String) {
        #expect(DecimalText.milliseconds(fromRRInterval: raw, fractionDigits: 3) == text)
    }

    @Test(
        "prints RR milliseconds to one decimal for people",
        arguments: [(722, "705.1"), (712, "695.3"), (768, "750.0"), (945, "922.9")] as [(UInt16, String)])
    func oneDecimal(raw: UInt16, text: String) {
        #expect(DecimalText.milliseconds(fromRRInterval: raw, fractionDigits: 1) == text)
    }

    @Test("rounds halves to even in both directions")
    func halfEven() {
        #expect(DecimalText.format(numerator: 25, denominator: 100, fractionDigits: 1) == "0.2")
        #expect(DecimalText.format(numerator: 35, denominator: 100, fractionDigits: 1) == "0.4")
        #expect(DecimalText.format(numerator: 251, denominator: 1000, fractionDigits: 1) == "0.3")
    }
}
