import CSQLite
import OutputFormats

/// What went wrong with the queue, with a stable `code` for scripts and metrics and a message
/// saying what happened, to which file, and what an operator can do.
package struct QueueError: CodedError, Sendable, Hashable {
    /// Stable identifiers; their raw values never change once released.
    package enum Code: String, Sendable, Hashable {
        /// The disk (or SQLite's page limit) is full: commits are retried, records wait in memory.
        case storageFull = "queue.storage-full"
        /// The file system refuses writes though the disk is not full: remounted read-only
        /// after an error (`errors=remount-ro`), or an I/O error. Commits are retried, records
        /// wait in memory.
        case storageFailed = "queue.storage-failed"
        /// The disk is full or failing and the in-memory bound is reached: the record was not
        /// accepted.
        case unflushedLimit = "queue.unflushed-limit"
        /// The queue file is damaged and this process may not replace it.
        case corrupt = "queue.corrupt"
        /// There is no queue file where one was expected.
        case missing = "queue.missing"
        /// The queue file or its directory could not be opened or created.
        case openFailed = "queue.open-failed"
        /// The file is there but this process may not use it, or the disk failed reading it
        /// (wrong owner or mode, a read-only file system, an I/O error): nothing is moved aside,
        /// because the file is not damaged.
        case inaccessible = "queue.inaccessible"
        /// A write failed for a reason other than a full disk.
        case writeFailed = "queue.write-failed"
        /// A read failed.
        case readFailed = "queue.read-failed"
        /// The queue was closed.
        case closed = "queue.closed"
    }

    /// The stable identifier.
    package var code: Code
    /// The human explanation.
    package var message: String

    /// An error from its parts.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Classifies an error thrown by SQLite while writing `path`.
    static func writing(_ error: any Error, path: String) -> QueueError {
        if let queueError = error as? QueueError { return queueError }
        if let database = error as? SQLiteError, database.code == SQLITE_FULL {
            return QueueError(
                .storageFull,
                "no space left to write the queue \(path) (\(database.message)); records stay in memory and commits are retried; free disk space or lower max_bytes"
            )
        }
        if let database = error as? SQLiteError, [SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PERM].contains(database.code) {
            return QueueError(
                .storageFailed,
                "the file system holding the queue \(path) refuses writes: \(database.message) (\(database.codeName)); records stay in memory and commits are retried. Look for disk errors (`dmesg`, `journalctl -k`): an SD card's file system is remounted read-only after an error and needs a check (fsck) or a new card"
            )
        }
        return QueueError(.writeFailed, "writing the queue \(path) failed: \(error)")
    }

    /// Whether commits wait and retry on this error (the disk is full or failing) rather than
    /// failing their records at once.
    var isStorageFault: Bool { code == .storageFull || code == .storageFailed }

    /// Classifies an error thrown by SQLite while reading `path`.
    static func reading(_ error: any Error, path: String) -> QueueError {
        if let queueError = error as? QueueError { return queueError }
        return QueueError(.readFailed, "reading the queue \(path) failed: \(error)")
    }
}
