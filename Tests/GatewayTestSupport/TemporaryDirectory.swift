import Foundation

/// A fresh directory owned by one test, removed by ``remove()``.
package struct TemporaryDirectory: Sendable {
    /// Its absolute path.
    package let path: String

    /// Creates `<tmp>/<prefix>-<uuid>`.
    package init(_ prefix: String = "gateway-test") throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// `name` inside the directory.
    package func file(_ name: String) -> String { path + "/" + name }

    /// Deletes the directory and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
