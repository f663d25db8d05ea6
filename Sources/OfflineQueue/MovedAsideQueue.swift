#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// A damaged queue file the owner moved aside at open (`<name>.corrupt-<UTC time>`, its `-wal`
/// and `-shm` beside it as `<name>-wal.corrupt-<UTC time>` …). Its readable records are not
/// lost: ``QueueSalvage`` imports them, after which the files are renamed with `.imported`
/// appended, so they are neither listed nor imported twice.
package struct MovedAsideQueue: Sendable, Hashable {
    /// The moved-aside database file.
    package let path: String
    /// The name the file had in the state directory (`queue.sqlite`, `held.sqlite`).
    package let originalName: String
    /// When it was moved aside, as its name says (`20270115T080000Z`, UTC).
    package let movedAt: String
    /// Its size in bytes (without the side files).
    package let bytes: Int64

    static let marker = ".corrupt-"
    static let importedSuffix = ".imported"

    /// Reads `path` as a moved-aside database file; nil for any other file, a side file, or one
    /// already imported.
    package init?(path: String) {
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard !name.hasSuffix(Self.importedSuffix), let marker = name.ranges(of: Self.marker).last else { return nil }
        let original = String(name[..<marker.lowerBound])
        guard !original.isEmpty, !original.hasSuffix("-wal"), !original.hasSuffix("-shm") else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        self.path = path
        self.originalName = original
        self.movedAt = String(name[marker.upperBound...])
        self.bytes = Int64(info.st_size)
    }

    /// The moved-aside queue files in `directory` not yet imported, oldest first. An unreadable
    /// directory lists none.
    package static func find(in directory: String) -> [MovedAsideQueue] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { MovedAsideQueue(path: directory + "/" + $0) }
            .sorted { ($0.movedAt, $0.path) < ($1.movedAt, $1.path) }
    }

    /// The database and the side files that were moved with it and still exist.
    var files: [String] {
        [path] + ["-wal", "-shm"].compactMap(sideFile)
    }

    /// The write-ahead log moved with it, if there is one.
    var walPath: String? { sideFile("-wal") }

    /// The side file (`-wal`, `-shm`) moved with the database, if it exists.
    private func sideFile(_ suffix: String) -> String? {
        let side = URL(fileURLWithPath: path).deletingLastPathComponent().path + "/" + originalName + suffix + Self.marker + movedAt
        return FileManager.default.fileExists(atPath: side) ? side : nil
    }

    /// Renames every file of the set with `.imported` appended.
    func markImported() throws(QueueError) {
        for file in files where rename(file, file + Self.importedSuffix) != 0 {
            throw QueueError(
                .writeFailed,
                "imported \(path) but could not rename \(file) to \(file + Self.importedSuffix): \(String(cString: strerror(errno))); rename or delete it by hand so it is not imported twice"
            )
        }
    }
}
