import Foundation
@testable import GatewayDaemon
import Testing

@Suite("Daemon: code pages trimmed after start-up")
struct CodePageTrimTests {
    /// A `/proc/PID/smaps` excerpt: one mapping of each kind, each with the fields that decide.
    static let smaps = """
        55d000000000-55d000200000 r--p 00000000 08:01 1234   /usr/bin/edge-gateway
        Rss:                 800 kB
        Anonymous:             0 kB
        Private_Dirty:         0 kB
        Swap:                  0 kB
        55d000200000-55d000d00000 r-xp 00200000 08:01 1234   /usr/bin/edge-gateway
        Anonymous:             0 kB
        Private_Dirty:         0 kB
        Swap:                  0 kB
        55d000d00000-55d000d80000 r--p 00d00000 08:01 1234   /usr/bin/edge-gateway
        Anonymous:           440 kB
        Private_Dirty:       440 kB
        Swap:                  0 kB
        55d000d80000-55d000da0000 rw-p 00d80000 08:01 1234   /usr/bin/edge-gateway
        Anonymous:           180 kB
        Private_Dirty:       180 kB
        Swap:                  0 kB
        7f0000000000-7f0000100000 r--s 00000000 08:01 99     /var/lib/edge-gateway/queue.sqlite3-shm
        Anonymous:             0 kB
        Private_Dirty:         0 kB
        Swap:                  0 kB
        7f0000100000-7f0000200000 r-xp 00000000 08:01 77     /usr/lib/x86_64-linux-gnu/libcurl.so.4.8.0
        Anonymous:             0 kB
        Private_Dirty:         0 kB
        Swap:                  4 kB
        7f0000200000-7f0000300000 r--p 00000000 08:01 78     /usr/lib/locale/C.utf8/LC_CTYPE
        Anonymous:             0 kB
        Private_Dirty:         4 kB
        Swap:                  0 kB
        7f0000300000-7f0000400000 r--p 00000000 00:00 0
        Anonymous:             0 kB
        7ffc00000000-7ffc00002000 r-xp 00000000 00:00 0      [vdso]
        Anonymous:             0 kB
        7f0000400000-7f0000500000 r-xp 00000000 08:01 79     /usr/lib/x86_64-linux-gnu/libdbus-1.so.3.32.4
        Anonymous:             0 kB
        Private_Dirty:         0 kB
        Swap:                  0 kB
        """

    @Test("only private, read-only file mappings with no page of their own are trimmed: never relocated data, writable, shared, anonymous or special ones")
    func picksCleanReadOnlyFileMappings() {
        #expect(
            CodePageTrim.cleanReadOnlyMappings(Self.smaps) == [
                0x55d0_0000_0000 ..< 0x55d0_0020_0000, 0x55d0_0020_0000 ..< 0x55d0_00d0_0000, 0x7f00_0040_0000 ..< 0x7f00_0050_0000,
            ])
    }

    @Test("trimming this process unmaps file pages it had resident, and the code it runs next is mapped back")
    func trimLowersResidentFilePages() throws {
        let before = try Self.residentFileKilobytes()
        #expect(CodePageTrim.trim() > 0)
        let after = try Self.residentFileKilobytes()
        #expect(after < before / 2, "RssFile \(before) kB before, \(after) kB after")
        #expect(CodePageTrim.cleanReadOnlyMappings(Self.smaps).count == 3, "code runs again after the trim")
    }

    private static func residentFileKilobytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssFile:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
