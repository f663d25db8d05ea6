import Foundation

/// A fresh directory owned by one test, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    /// Its absolute path.
    public let path: String

    /// Creates `<tmp>/<prefix>-<uuid>`.
    public init(_ prefix: String = "gateway-test") throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Deletes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
