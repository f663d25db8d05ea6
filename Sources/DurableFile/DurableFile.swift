import Glibc

/// Replaces a state file so that a crash or power cut leaves either the old or the new
/// contents, never a mix, and the new contents are on disk when `replace` returns: write a
/// temporary file, fsync it, rename it over the old one, fsync the directory.
///
/// Credentials and sensor bindings are written this way (the gateway must not lose a token the
/// server has already rotated, nor a binding a technician just made).
package enum DurableFile {
    /// Replaces `path` with `bytes`, giving the file `mode`; creates the directory with
    /// `directoryMode` if it is missing. Private (0600 in 0700) unless asked otherwise: every
    /// file the gateway keeps is health data, credentials or the straps that produce them.
    ///
    /// `synced: false` keeps the rename (readers see the old file or the new one, never half)
    /// but skips both fsyncs: for a snapshot the next write replaces anyway, which a power cut
    /// may take back to an older version but must not cost an SD card a flush each time.
    package static func replace(
        _ path: String, with bytes: some Collection<UInt8>, mode: mode_t = 0o600, directoryMode: mode_t = 0o700,
        synced: Bool = true
    ) throws(DurableFileError) {
        let directory = parent(of: path)
        mkdir(directory, directoryMode)
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure("create \(temporary)") }
        fchmod(descriptor, mode)
        let data = Array(bytes)
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count, !synced || fsync(descriptor) == 0 else {
            let error = failure("write \(temporary)")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failure("rename \(temporary) to \(path)")
            unlink(temporary)
            throw error
        }
        guard synced else { return }
        try syncDirectory(directory)
    }

    /// Gives the finished file `temporary` the name `path` unless `path` already exists, then
    /// removes `temporary` and fsyncs the directory. Returns false when another process got
    /// there first: its file stands, and `temporary` is gone either way.
    ///
    /// Files other processes may open as soon as they appear (the queue) are built aside and
    /// published this way, so nobody ever sees one half made, and two creators cannot clash.
    package static func publish(_ temporary: String, as path: String) throws(DurableFileError) -> Bool {
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 else {
            guard errno == EEXIST else { throw failure("link \(temporary) to \(path)") }
            return false
        }
        let directory = parent(of: path)
        try syncDirectory(directory)
        return true
    }

    /// Makes the directory's entries (a rename, a link) survive a power cut.
    private static func syncDirectory(_ directory: String) throws(DurableFileError) {
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else { throw failure("open \(directory) to fsync it") }
        defer { close(directoryDescriptor) }
        guard fsync(directoryDescriptor) == 0 else { throw failure("fsync \(directory)") }
    }

    private static func parent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
    }

    private static func failure(_ operation: String) -> DurableFileError {
        DurableFileError(operation: operation, reason: String(cString: strerror(errno)))
    }
}

/// A step of the replacement failed; the old file, if any, is untouched.
package struct DurableFileError: Error, CustomStringConvertible {
    /// What was being done (`write /var/lib/edge-gateway/sensors.json.tmp-42`).
    package let operation: String
    /// `strerror` of the failing call.
    package let reason: String

    /// `could not <operation>: <reason>`: the failing step and its `strerror`, for operators.
    package var description: String { "could not \(operation): \(reason)" }
}
