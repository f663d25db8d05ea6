import CLinux
import Glibc
import GatewayPipeline
import Logging
import ServiceLifecycle

/// Unmaps the code the daemon ran once, so that its resident memory is what it keeps using.
///
/// Why: start-up runs code it never runs again (parsing the configuration and arguments,
/// opening and checking the queue, enrolment and TLS set-up), and every page of it stays
/// mapped, with the pages the kernel maps around each one (fault-around, read-ahead): about
/// 14 MB of the static binary and as much of the libraries it links, for a working set of a
/// few. Those are clean file pages, which the kernel could drop anyway; but mapped, they count
/// in the daemon's RSS and are the last the kernel reclaims on a small board.
///
/// How: a while after start, and then rarely, it gives `MADV_DONTNEED` for every loadable
/// segment that is not writable (code, read-only data, unwind tables) of every object loaded,
/// as their program headers say (`dl_iterate_phdr`). For such a segment that only removes the
/// page-table entries: its pages stay in the page cache, and the code that runs again is
/// mapped back by a minor fault. Relocated data (RELRO) lies in writable segments, which are
/// never touched, and an object whose code was relocated in place (`DT_TEXTREL`) is skipped.
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
            logger.debug("unmapped the code and read-only data pages", metadata: ["segments_bytes": "\(trimmed)"])
            wait = every
        }
    }

    /// Trims this process's read-only segments; returns the bytes they span.
    @discardableResult
    static func trim() -> Int {
        var total = 0
        for range in readOnlySegments() {
            let length = Int(range.upperBound - range.lowerBound)
            if madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), length, MADV_DONTNEED) == 0 { total += length }
        }
        return total
    }

    /// The address ranges of the loadable segments without write permission of every loaded
    /// object, each shrunk to whole pages (a page shared with another segment is left alone),
    /// outside any RELRO range, and none of an object with text relocations or of the vDSO.
    static func readOnlySegments() -> [Range<UInt>] {
        var ranges: [Range<UInt>] = []
        withUnsafeMutablePointer(to: &ranges) { pointer in
            _ = clinux_each_loaded_object(
                { object, _, context in
                    guard let object = object?.pointee, let context, let headers = object.headers else { return 0 }
                    let ranges = context.assumingMemoryBound(to: [Range<UInt>].self)
                    ranges.pointee += CodePageTrim.readOnlySegments(
                        of: UnsafeBufferPointer(start: headers, count: Int(object.headerCount)), base: UInt(object.address),
                        name: object.name.map { String(cString: $0) } ?? "")
                    return 0
                }, pointer)
        }
        return ranges
    }

    private static func readOnlySegments(of headers: UnsafeBufferPointer<Elf64_Phdr>, base: UInt, name: String) -> [Range<UInt>] {
        guard !name.contains("linux-vdso"), !hasTextRelocations(headers, base: base) else { return [] }
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let relro = headers.filter { $0.p_type == PT_GNU_RELRO }.map { base + UInt($0.p_vaddr) ..< base + UInt($0.p_vaddr + $0.p_memsz) }
        return headers.compactMap { header -> Range<UInt>? in
            guard header.p_type == PT_LOAD, header.p_flags & UInt32(PF_W) == 0 else { return nil }
            let start = (base + UInt(header.p_vaddr) + page - 1) / page * page
            let end = (base + UInt(header.p_vaddr + header.p_memsz)) / page * page
            guard start < end, !relro.contains(where: { $0.overlaps(start ..< end) }) else { return nil }
            return start ..< end
        }
    }

    /// Whether the object's dynamic section asks for relocations in its code (`DT_TEXTREL`, or
    /// `DF_TEXTREL` in `DT_FLAGS`): its code pages were then written, and are not the file's.
    private static func hasTextRelocations(_ headers: UnsafeBufferPointer<Elf64_Phdr>, base: UInt) -> Bool {
        guard let dynamic = headers.first(where: { $0.p_type == PT_DYNAMIC }),
            var entry = UnsafePointer<Elf64_Dyn>(bitPattern: base + UInt(dynamic.p_vaddr))
        else { return false }
        while entry.pointee.d_tag != DT_NULL {
            if entry.pointee.d_tag == DT_TEXTREL { return true }
            if entry.pointee.d_tag == DT_FLAGS, entry.pointee.d_un.d_val & UInt64(DF_TEXTREL) != 0 { return true }
            entry += 1
        }
        return false
    }
}
