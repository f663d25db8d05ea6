import CSQLite
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
                return (try openPrepared(path: path, pageSize: configuration.pageSize, check: false), nil)
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
            do {
                return (try openPrepared(path: path, pageSize: configuration.pageSize, check: true), nil)
            } catch  where existed && isDamage(error) {
                let report = try moveAside(path: path, reason: "\(error)", clock: configuration.clock)
                configuration.logger.critical("queue file replaced", metadata: ["reason": "\(report.reason)", "moved_to": "\(report.movedAsidePaths)"])
                do {
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

    /// Opens the connection, sets WAL and the durability pragmas, optionally runs
    /// `quick_check`, and migrates.
    private static func openPrepared(path: String, pageSize: Int, check: Bool) throws -> SQLiteConnection {
        // A new file is created 0600 here, before SQLite would create it by the umask; its -wal
        // and -shm take the same mode. Samples are health data (docs/SECURITY.md).
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
        let connection = try SQLiteConnection(path: path)
        do {
            // The page size only takes on a new file, before WAL; synchronous = FULL makes a
            // commit survive power loss, which is what "accepted" promises.
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
                guard problems == ["ok"] else { throw IntegrityProblem(findings: problems) }
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
        if error is IntegrityProblem { return true }
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
struct IntegrityProblem: Error, CustomStringConvertible {
    let findings: [String]
    var description: String { "quick_check: " + findings.prefix(3).joined(separator: "; ") }
}
