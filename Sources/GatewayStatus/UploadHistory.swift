import DurableFile
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import OutputFormats
import Synchronization

/// The last uploader rounds, in `<state>/upload-history.jsonl`, one JSON object per line, for
/// `edge-gateway status --history`.
///
/// Written for SD cards: each attempt appends one line (`O_APPEND`), so a round costs one small
/// write instead of rewriting the file. Lines are not fsynced: the history is diagnostic, not
/// data, and losing the last few lines in a power cut costs nothing that matters (the samples
/// themselves are in the queue, which is durable). When the file passes `compactionThreshold`
/// lines it is replaced atomically (`DurableFile.replace`) by its newest `capacity` lines; the
/// lines are counted once, at the first record, and then as they are written, so a round never
/// reads the file back.
///
/// Reading tolerates a torn last line and any other line that does not decode: they are skipped.
/// The daemon's uploader is the only writer: the count assumes no other process appends.
package final class UploadHistory: Sendable {
    /// The file's name in the state directory.
    static let fileName = "upload-history.jsonl"
    /// How many attempts are kept.
    package static let capacity = 200
    /// The line count past which the file is compacted back to `capacity`.
    static let compactionThreshold = 400

    /// The state directory.
    let directory: String
    /// `<directory>/upload-history.jsonl`.
    var path: String { directory + "/" + Self.fileName }
    /// The file's line count (its newlines) once the first record has read it.
    private let newlines = Mutex<Int?>(nil)

    /// The history in `directory`.
    package init(directory: String) {
        self.directory = directory
    }

    /// Appends `attempt`, compacting the file when it has grown past the threshold.
    package func record(_ attempt: UploadAttempt) throws {
        var line = attempt.jsonBytes
        line.append(UInt8(ascii: "\n"))
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("open \(path)") }
        defer { close(descriptor) }
        if !endsWithNewline(descriptor) {
            line.insert(UInt8(ascii: "\n"), at: 0)
        }
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else {
            newlines.withLock { $0 = nil }
            throw failure("append to \(path)")
        }
        let count = newlines.withLock { counted in
            let count = counted.map { $0 + line.count(where: { $0 == UInt8(ascii: "\n") }) } ?? lineCount()
            counted = count
            return count
        }
        if count > Self.compactionThreshold {
            try compact()
        }
    }

    /// The newest `limit` attempts, oldest first; empty when there is no history yet.
    package func recent(limit: Int = UploadHistory.capacity) -> [UploadAttempt] {
        let attempts = lines().compactMap { try? Self.decoder.decode(UploadAttempt.self, from: Data($0)) }
        return Array(attempts.suffix(max(0, limit)))
    }

    /// Keeps the newest `capacity` decodable lines, replacing the file atomically.
    private func compact() throws {
        let kept = recent(limit: Self.capacity)
        var bytes: [UInt8] = []
        for attempt in kept {
            bytes += attempt.jsonBytes
            bytes.append(UInt8(ascii: "\n"))
        }
        do {
            try DurableFile.replace(path, with: bytes)
            newlines.withLock { $0 = kept.count }
        } catch {
            throw UploadHistoryError(message: "cannot compact \(path): \(error); check free space in the state directory")
        }
    }

    /// Whether the file is empty or ends a line: after a torn write (power cut mid-line) the next
    /// line starts on a fresh line, so only the torn one is lost.
    private func endsWithNewline(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return true }
        var last: UInt8 = 0
        return pread(descriptor, &last, 1, status.st_size - 1) != 1 || last == UInt8(ascii: "\n")
    }

    private func lineCount() -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return data.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    private func lines() -> [ArraySlice<UInt8>] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return Array(data).split(separator: UInt8(ascii: "\n"))
    }

    private func failure(_ operation: String) -> UploadHistoryError {
        UploadHistoryError(message: "cannot \(operation): \(String(cString: strerror(errno))); check free space and permissions of the state directory")
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// Why an attempt could not be recorded.
struct UploadHistoryError: CodedError {
    /// The one code.
    enum Code: String { case writeFailed = "history.write-failed" }

    /// Always `history.write-failed`.
    let code = Code.writeFailed
    /// Which file, what failed, and what to check.
    let message: String
}
