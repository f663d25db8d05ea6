import Foundation
@testable import GatewayDaemon
import Testing

@Suite("Daemon: code pages trimmed after start-up")
struct CodePageTrimTests {
    /// A mapping of `/proc/self/maps`: its addresses, permissions and path.
    struct Mapping {
        let range: Range<UInt>
        let permissions: String
        let path: String
    }

    /// This process's mappings, read to the end (`String(contentsOfFile:)` stops at a page of a
    /// `/proc` file, whose size says 0).
    static func mappings() throws -> [Mapping] {
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? file.close() }
        let text = String(decoding: try #require(try file.readToEnd()), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let bounds = fields[0].split(separator: "-")
            guard let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16) else { return nil }
            return Mapping(range: start ..< end, permissions: String(fields[1]), path: fields.count > 5 ? String(fields[5]) : "")
        }
    }

    @Test("every segment it picks lies in private, file-backed mappings without write permission; this process's libc code is among them")
    func picksOnlyReadOnlyFileSegments() throws {
        let segments = CodePageTrim.readOnlySegments()
        let mappings = try Self.mappings()
        #expect(!segments.isEmpty)
        for segment in segments {
            let covering = mappings.filter { $0.range.overlaps(segment) }
            #expect(covering.reduce(0) { $0 + Int($1.range.clamped(to: segment).count) } == Int(segment.count), "\(segment) is mapped whole")
            for mapping in covering {
                #expect(!mapping.permissions.contains("w") && mapping.permissions.hasSuffix("p") && mapping.path.hasPrefix("/"), "\(mapping)")
            }
        }
        let strlenAddress = UInt(bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "strlen"))
        #expect(segments.contains { $0.contains(strlenAddress) }, "libc's code")
        let writable = mappings.filter { $0.permissions.contains("w") }
        #expect(!writable.contains { mapping in segments.contains { $0.overlaps(mapping.range) } }, "no writable mapping, RELRO's data included")
    }

    @Test("trimming this process unmaps file pages it had resident, and the code it runs next is mapped back")
    func trimLowersResidentFilePages() throws {
        let before = try Self.residentFileKilobytes()
        #expect(CodePageTrim.trim() > 0)
        let after = try Self.residentFileKilobytes()
        #expect(after < before / 2, "RssFile \(before) kB before, \(after) kB after")
        #expect(!CodePageTrim.readOnlySegments().isEmpty, "code runs again after the trim")
    }

    private static func residentFileKilobytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssFile:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
