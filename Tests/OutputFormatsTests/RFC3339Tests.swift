import Foundation
import GatewayTestSupport
import OutputFormats
import Testing

@Suite("RFC 3339 timestamps")
struct RFC3339Tests {
    @Test("known instants format as UTC with milliseconds, truncating sub-millisecond digits")
    func knownInstants() {
        #expect(RFC3339.format(nanosecondsSince1970: 0) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.format(nanosecondsSince1970: 951_782_400_999_999_999) == "2000-02-29T00:00:00.999Z")
        #expect(RFC3339.format(nanosecondsSince1970: 1_795_334_401_250_000_000) == "2026-11-22T08:00:01.250Z")
        #expect(RFC3339.format(nanosecondsSince1970: 4_102_444_799_001_000_000) == "2099-12-31T23:59:59.001Z")
    }

    @Test("agrees with Foundation's ISO 8601 formatter on 10 000 seeded instants")
    func agreesWithFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var random = SplitMix64(seed: 2026)
        for _ in 0 ..< 10_000 {
            let milliseconds = Int64.random(in: 0 ... 4_102_444_800_000, using: &random)
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            #expect(RFC3339.format(nanosecondsSince1970: milliseconds * 1_000_000) == expected)
        }
    }
}
