import CSQLite
import DurableFile
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Logging

/// Opens the SQLite file behind a queue: pragmas for durability and low write amplification,
/// the integrity check, migrations, and the move-aside recovery of a damaged file.
enum QueueDatabase {
    /// Checkpoint when the WAL holds about this many bytes: larger means each hot page is
    /// copied back to the database fewer times per record.
    static let autocheckpointBytes = 4 << 20
    /// After a checkpoint, a WAL larger than this is truncated; below it the file is reused in
    /// place, which avoids re-allocating blocks on an SD card.
    static let journalSizeLimit = 8 << 20

    /// Opens (and for `.owner`, checks and if need be replaces) the file at `path`.
    static func open(
        path: String, access: QueueAccess, configuration: QueueConfiguration
    ) throws(QueueError) -> (SQLiteConnection, RecoveryReport?) {
        do {
            return try openOrReplace(path: path, access: access, configuration: configuration)
        } catch let error as QueueError {
            throw error
        } catch {
            throw QueueError(.openFailed, "cannot open the queue \(path): \(error)")
        }
    }

    private static func openOrReplace(
        path: String, access: QueueAccess, configuration: QueueConfiguration
    ) throws -> (SQLiteConnection, RecoveryReport?) {
        switch access {
        case .attach:
            guard FileManager.default.fileExists(atPath: path) else {
                throw QueueError(.missing, "no queue at \(path); check --state-dir (the daemon creates the queue when it first starts)")
            }
            do {
                return (try openAttached(path: path), nil)
            } catch  where isDamage(error) {
                throw QueueError(.corrupt, "cannot use the queue \(path): \(error); the daemon moves a damaged queue aside when it next starts")
            } catch {
                throw unopenable(path, error)
            }
        case .owner:
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do {
                try FileManager.default.createDirectory(
                    atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw QueueError(.openFailed, "cannot create the state directory \(directory): \(error)")
            }
            let existed = FileManager.default.fileExists(atPath: path)
            if !existed { try create(path: path, pageSize: configuration.pageSize) }
            do {
                return (try openPrepared(path: path, pageSize: configuration.pageSize, check: true), nil)
            } catch  where existed && isDamage(error) {
                let report = try moveAside(path: path, reason: "\(error)", clock: configuration.clock)
                configuration.logger.critical("queue file replaced", metadata: ["reason": "\(report.reason)", "moved_to": "\(report.movedAsidePaths)"])
                do {
                    try create(path: path, pageSize: configuration.pageSize)
                    return (try openPrepared(path: path, pageSize: configuration.pageSize, check: true), report)
                } catch {
                    throw QueueError(.openFailed, "cannot create a fresh queue at \(path) after moving a damaged one aside: \(error)")
                }
            } catch {
                throw unopenable(path, error)
            }
        }
    }

    /// The error for a file that could not be opened for a reason other than damage: a
    /// permission, read-only or I/O problem is `inaccessible` (the operator must fix the file
    /// or the disk; moving it aside would only hide its records), anything else `openFailed`.
    private static func unopenable(_ path: String, _ error: any Error) -> QueueError {
        if let queueError = error as? QueueError { return queueError }
        guard let database = error as? SQLiteError,
            [SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH, SQLITE_IOERR].contains(database.code)
        else {
            return QueueError(.openFailed, "cannot open the queue \(path): \(error)")
        }
        return QueueError(
            .inaccessible,
            "cannot open the queue \(path): \(database.message) (\(database.codeName)); nothing was moved aside, the file is not damaged. Check that the file and its directory belong to the daemon's user and are writable (with the .deb: chown -R edge-gateway: /var/lib/edge-gateway), that the file system is mounted read-write, and the kernel log for disk errors"
        )
    }

    /// Builds a new queue file beside `path` and publishes it under that name in one step, so a
    /// tool polling the state directory (or a second daemon) sees no file or a whole one, never
    /// a file still switching to WAL or half through its schema; a power cut mid-way leaves
    /// only a draft, which the next creation removes.
    private static func create(path: String, pageSize: Int) throws {
        removeAbandonedDrafts(of: path)
        let draft = path + draftMarker + "\(getpid())"
        for file in [draft, draft + "-wal", draft + "-shm"] { unlink(file) }
        do {
            // Created 0600 before SQLite would create it by the umask; its -wal and -shm take
            // the same mode. Samples are health data (docs/SECURITY.md).
            let descriptor = Glibc.open(draft, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw QueueError(.openFailed, "cannot create \(draft): \(String(cString: strerror(errno)))") }
            close(descriptor)
            // The page size only takes on a new file, before WAL. Closing the only connection
            // checkpoints the WAL into the file (synchronous = FULL: with an fsync) and removes it.
            let connection = try openPrepared(path: draft, pageSize: pageSize, check: false)
            connection.close()
            _ = try DurableFile.publish(draft, as: path)
        } catch {
            for file in [draft, draft + "-wal", draft + "-shm"] { unlink(file) }
            throw error
        }
    }

    private static let draftMarker = ".creating-"

    /// Removes drafts whose creator is gone (a crash or power cut while creating).
    private static func removeAbandonedDrafts(of path: String) {
        let url = URL(fileURLWithPath: path)
        let prefix = url.lastPathComponent + draftMarker
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let owner = name.dropFirst(prefix.count).prefix { $0.isNumber }
            if let pid = pid_t(owner), kill(pid, 0) == 0 || errno == EPERM { continue }
            unlink(url.deletingLastPathComponent().appendingPathComponent(name).path)
        }
    }

    /// A tool's connection beside the daemon: never creates, never changes the file's mode or
    /// schema (those take locks the daemon may be waiting for), and reads only a file the
    /// daemon has made current.
    private static func openAttached(path: String) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, create: false)
        do {
            try connection.execute(script: "PRAGMA synchronous = FULL;")
            guard try QueueSchema.migrator.isCurrent(connection) else {
                throw QueueError(
                    .missing,
                    "the queue \(path) is not yet at this edge-gateway's schema; the daemon upgrades it when it starts, so start it (or wait for it) and try again"
                )
            }
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    /// Opens the connection, sets WAL and the durability pragmas, optionally runs
    /// `quick_check`, and migrates.
    private static func openPrepared(path: String, pageSize: Int, check: Bool) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, create: false)
        do {
            // synchronous = FULL makes a commit survive power loss, which is what "accepted"
            // promises.
            try connection.execute(
                script: """
                    PRAGMA page_size = \(pageSize);
                    PRAGMA journal_mode = WAL;
                    PRAGMA synchronous = FULL;
                    PRAGMA wal_autocheckpoint = \(autocheckpointBytes / pageSize);
                    PRAGMA journal_size_limit = \(journalSizeLimit);
                    """)
            if check {
                let problems = try connection.rows("PRAGMA quick_check", keep: false).map { try $0.text(0) }
                guard problems == ["ok"] else { throw IntegrityError(findings: problems) }
            }
            try QueueSchema.migrator.migrate(connection)
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    /// Errors that mean the file's contents are damaged: SQLite says so (`SQLITE_CORRUPT`,
    /// `SQLITE_NOTADB`) or `quick_check` found a problem. A permission, read-only, I/O, full-disk
    /// or lock error says nothing about the contents, so it never moves a file aside.
    static func isDamage(_ error: any Error) -> Bool {
        if error is IntegrityError { return true }
        guard let database = error as? SQLiteError else { return false }
        return database.code == SQLITE_CORRUPT || database.code == SQLITE_NOTADB
    }

    /// Renames the database and its side files to `<name>.corrupt-<UTC time>`.
    private static func moveAside(path: String, reason: String, clock: any QueueClock) throws -> RecoveryReport {
        let now = clock.nanosecondsSince1970()
        let suffix = ".corrupt-" + UTCTimestamp.compact(nanosecondsSince1970: now)
        var moved: [String] = []
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            let target = file + suffix
            guard rename(file, target) == 0 else {
                throw QueueError(
                    .openFailed,
                    "the queue \(path) is unusable (\(reason)) and could not be moved aside to \(target): \(String(cString: strerror(errno))); move it away by hand"
                )
            }
            moved.append(target)
        }
        return RecoveryReport(reason: reason, movedAsidePaths: moved, time: now)
    }
}

/// `PRAGMA quick_check` found damage.
struct IntegrityError: Error, CustomStringConvertible {
    let findings: [String]
    var description: String { "quick_check: " + findings.prefix(3).joined(separator: "; ") }
}

/// How a process uses a queue file.
package enum QueueAccess: Sendable, Hashable {
    /// The daemon: creates the file, checks it with `PRAGMA quick_check` at open, and replaces
    /// a damaged one with a fresh queue (keeping the damaged file beside it).
    case owner
    /// A tool working next to a running daemon: the file must exist, is not integrity-checked
    /// (that can take long on a big backlog) and is never replaced.
    case attach
}
