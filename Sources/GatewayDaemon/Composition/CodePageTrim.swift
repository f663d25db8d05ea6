import Glibc
import GatewayPipeline
import Logging
import ServiceLifecycle

/// Unmaps the code the daemon ran once, so that its resident memory is what it keeps using.
///
/// Why: start-up runs code it never runs again (parsing the configuration and arguments,
/// opening and checking the queue, enrolment and TLS set-up), and every page of it stays
/// mapped, with the pages the kernel maps around each one (fault-around, read-ahead): about
/// 25 MB of the static binary and the libraries it links, for a working set of a few. Those
/// pages are clean file pages, so the kernel could drop them anyway; but mapped, they count in
/// the daemon's RSS and are the last the kernel reclaims on a small board.
///
/// How: a while after start, and then rarely, it reads `/proc/self/smaps` and gives
/// `MADV_DONTNEED` for every file mapping that is private, not writable and holds no page of
/// its own (no `Anonymous` or private dirty page: relocated data such as RELRO always has some,
/// and is never touched). For such a mapping that only removes the page-table entries: the pages
/// stay in the page cache, and the code that runs again is mapped back by a minor fault.
struct CodePageTrim: Service {
    /// When the first trim comes: after start-up and the first connections.
    var first: Duration = .seconds(30)
    /// How often it comes again: rare, so that code run every few minutes stays mapped.
    var every: Duration = .seconds(3600)
    let logger: Logger

    func run() async throws {
        var wait = first
        while !Task.isCancelledOrShuttingDown {
            await ServicePause.sleep(for: wait)
            guard !Task.isCancelledOrShuttingDown else { return }
            let trimmed = Self.trim()
            logger.debug("unmapped the clean pages of code and read-only data", metadata: ["mappings_bytes": "\(trimmed)"])
            wait = every
        }
    }

    /// Trims this process's clean read-only file mappings; returns the bytes they span.
    @discardableResult
    static func trim() -> Int {
        guard let smaps = Self.read("/proc/self/smaps") else { return 0 }
        var total = 0
        for range in cleanReadOnlyMappings(smaps) {
            let length = Int(range.upperBound - range.lowerBound)
            if madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), length, MADV_DONTNEED) == 0 { total += length }
        }
        return total
    }

    /// The address ranges in `smaps` (the text of a `/proc/PID/smaps`) of the mappings that are
    /// safe to trim: file-backed, private, not writable, with no anonymous, private dirty or
    /// swapped page.
    static func cleanReadOnlyMappings(_ smaps: String) -> [Range<UInt>] {
        var ranges: [Range<UInt>] = []
        var candidate: Range<UInt>?
        func close() {
            if let candidate { ranges.append(candidate) }
            candidate = nil
        }
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if let dash = first.firstIndex(of: "-"), fields.count >= 5,
                let start = UInt(first[..<dash], radix: 16), let end = UInt(first[first.index(after: dash)...], radix: 16)
            {
                close()
                let permissions = fields[1]
                let path = fields.count >= 6 ? fields[5] : ""
                if permissions.count == 4, !permissions.contains("w"), permissions.hasSuffix("p"), path.hasPrefix("/"), start < end {
                    candidate = start ..< end
                }
            } else if candidate != nil, ["Anonymous:", "Private_Dirty:", "Swap:"].contains(first), fields.count >= 2, fields[1] != "0" {
                candidate = nil
            }
        }
        close()
        return ranges
    }

    private static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
