import Testing
@testable import Uplink

@Suite("Uplink Retry-After")
struct RetryAfterTests {
    @Test("Retry-After delta-seconds parse, capped at an hour; dates, negatives and junk are ignored")
    func retryAfter() {
        #expect(RetryAfter.parse("7") == .seconds(7))
        #expect(RetryAfter.parse(" 0 ") == .zero)
        #expect(RetryAfter.parse("86400") == .seconds(3600))
        #expect(RetryAfter.parse("Wed, 21 Oct 2026 07:28:00 GMT") == nil)
        #expect(RetryAfter.parse("-1") == nil)
        #expect(RetryAfter.parse(nil) == nil)
    }
}
