import Foundation
@testable import GatewayPipeline
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

    @Test("ids drawn at once from eight threads, across many refills of the shared pool, are all distinct")
    func distinctAcrossThreads() async {
        let ids = await withTaskGroup(of: [UUID].self) { group in
            for _ in 0 ..< 8 { group.addTask { (0 ..< 2_000).map { _ in UUID.random() } } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(ids.count == 16_000)
        #expect(Set(ids).count == ids.count)
    }
}
