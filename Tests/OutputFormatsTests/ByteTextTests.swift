import Foundation
import GatewayTestSupport
import OutputFormats
import Testing

@Suite("Text forms of bytes")
struct ByteTextTests {
    @Test("base64 is what Foundation writes, padding included, for every length up to 100 bytes")
    func base64MatchesFoundation() {
        var random = SplitMix64(seed: 0xB64)
        for length in 0 ... 100 {
            let bytes = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
            #expect(ByteText.base64(bytes) == Data(bytes).base64EncodedString(), "\(bytes)")
        }
    }

    @Test("a UUID's lower-case text is Foundation's uuidString lowercased")
    func uuidTextMatchesFoundation() {
        var random = SplitMix64(seed: 0x0071D)
        let extremes = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))] + [UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!]
        let uuids = extremes + (0 ..< 1_000).map { _ in UUID.random(using: &random) }
        for uuid in uuids {
            #expect(uuid.lowercasedText == uuid.uuidString.lowercased())
        }
    }
}

extension UUID {
    fileprivate static func random(using generator: inout SplitMix64) -> UUID {
        let bytes = (0 ..< 16).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        return bytes.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
    }
}
