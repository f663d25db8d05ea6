#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayPipeline
import Glibc

/// The one `edge-gateway run` of a state directory: an exclusive `flock` on `run.lock` there,
/// held until `release()` and dropped by the kernel when the process ends, however it ends.
///
/// Two daemons on one state directory would both renew the OAuth grant (each rotation revokes
/// the other's refresh token) and both write the queue; the second is refused at start instead.
final class StateDirectoryLock {
    static let fileName = "run.lock"

    private var descriptor: Int32

    /// Takes the lock of `directory` without waiting, and writes this process's pid in the file
    /// for the message another `run` prints.
    init(directory: String) throws(GatewayError) {
        let path = directory + "/" + Self.fileName
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw GatewayError(
                .stateDirectory,
                "cannot open \(path): \(String(cString: strerror(errno))); the state directory must belong to the daemon's user and be writable (with the .deb: chown -R edge-gateway: /var/lib/edge-gateway)"
            )
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            close(descriptor)
            let who = Int32(text.filter { !$0.isWhitespace }).map { "another edge-gateway run (pid \($0))" } ?? "another edge-gateway run"
            throw GatewayError(
                .alreadyRunning,
                "\(who) is using the state directory \(directory); stop it first (with the .deb: systemctl stop edge-gateway), or give this one another --state-dir"
            )
        }
        let pid = Array("\(getpid())\n".utf8)
        ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    /// Lets the next `run` have the directory.
    func release() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    deinit {
        release()
    }
}
