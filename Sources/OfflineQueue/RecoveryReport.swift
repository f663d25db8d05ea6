/// What happened when the queue file could not be used at open and was replaced: the damaged
/// files are kept (renamed with a timestamp) for inspection, and a fresh queue took their place.
package struct RecoveryReport: Sendable, Hashable, CustomStringConvertible {
    /// Why the file was unusable (the SQLite error or `quick_check` output).
    package var reason: String
    /// Where the damaged database (and its `-wal`/`-shm` files, if present) now are.
    package var movedAsidePaths: [String]
    /// When it happened, in nanoseconds since 1970.
    package var time: Int64

    /// One sentence for the log: why the file was unusable and where the damaged files went.
    package var description: String {
        "queue file was unusable (\(reason)); moved aside to \(movedAsidePaths.joined(separator: ", ")) and a fresh queue was created"
    }
}
