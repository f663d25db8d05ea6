import GATTHeartRate
import Testing

@Suite("Heart Rate Control Point (0x2A39)")
struct HeartRateControlPointTests {
    @Test("encodes reset-energy-expended as the single byte 0x01")
    func encodesReset() {
        #expect(HeartRateControlPointCommand.resetEnergyExpended.encoded == [0x01])
    }

    @Test("names the ATT error a strap returns for an unknown command")
    func namesNotSupportedError() {
        #expect(HeartRateControlPointCommand.valueNotSupported == 0x80)
    }
}
