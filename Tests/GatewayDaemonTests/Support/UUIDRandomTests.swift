import Foundation
@testable import GatewayDaemon
import Testing

@Suite("UUID.random")
struct UUIDRandomTests {
    @Test("every UUID is version 4, RFC 4122 variant, and 10,000 of them are distinct")
    func versionVariantAndUniqueness() {
        let ids = (0 ..< 10_000).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let text = id.uuidString
            #expect(Array(text)[14] == "4", "\(text)")
            #expect("89AB".contains(Array(text)[19]), "\(text)")
        }
    }
}
