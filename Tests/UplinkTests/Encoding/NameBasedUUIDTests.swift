import Foundation
import Testing
@testable import Uplink

@Suite("Name-based UUIDs and their SHA-1")
struct NameBasedUUIDTests {
    @Test("SHA-1 gives the FIPS 180 example digests, across the one- and two-block padding cases")
    func sha1MatchesTheStandardVectors() {
        let vectors = [
            ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
            (String(repeating: "a", count: 1000), "291e9a6c66994949b57ba5e650361e98fc36b1ba"),
        ]
        for (message, expected) in vectors {
            var hasher = SHA1()
            hasher.update(message.utf8)
            let digest = hasher.finalize().map { String($0, radix: 16).leftPadded(to: 2) }.joined()
            #expect(digest == expected, "SHA-1 of \(message.prefix(20))…")
        }
    }

    @Test("a version-5 UUID matches RFC 4122's construction (Python's uuid5 of python.org in the DNS namespace)")
    func version5MatchesOtherImplementations() {
        let dns = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(NameBasedUUID.make("python.org", in: dns).uuidString.lowercased() == "886313e1-3b8a-5372-9b90-0c9aee199e5d")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
