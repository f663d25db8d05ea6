import CLinux
import Glibc
import Synchronization

/// A child process started with a clean signal state, so it always honours SIGTERM.
///
/// Swift Testing (and some service managers) run with SIGTERM blocked, and a blocked mask is
/// inherited across exec: a `dbus-daemon` started naively then ignores `kill -TERM` and outlives
/// its test. `posix_spawn` with an empty mask and default dispositions avoids that.
package final class ChildProcess: Sendable {
    /// Why a child could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        /// The path or name that could not be started, as it was passed in.
        package let executable: String
        /// The `errno` value `pipe` or `posix_spawnp` reported (`ENOENT` when it is not installed).
        package let errno: Int32
        /// `cannot start dbus-daemon: No such file or directory`: the executable and `strerror`.
        package var description: String {
            "cannot start \(executable): \(String(cString: strerror(errno)))"
        }
    }

    /// The child's process id.
    package let pid: pid_t
    /// The read end of the child's standard output, when captured.
    package let standardOutput: Int32?
    /// The wait status, once reaped.
    private let ended = Mutex<Int32?>(nil)

    /// Starts `executable` (a path, or a name looked up in `PATH`) with `arguments`.
    /// Standard output is captured in a pipe when `captureOutput`, else appended to
    /// `outputPath`; standard error is appended to `errorPath`; standard input is read from
    /// `inputPath`. The environment is `environment` when given, else this process's.
    package init(
        _ executable: String, _ arguments: [String], captureOutput: Bool = false, outputPath: String = "/dev/null",
        errorPath: String = "/dev/null", inputPath: String = "/dev/null", environment: [String: String]? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeFDs: [Int32] = [-1, -1]
        if captureOutput {
            guard pipe(&pipeFDs) == 0 else { throw SpawnError(executable: executable, errno: Glibc.errno) }
            _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        // Nothing else of the parent's: a long-lived child holding a copy of a pipe or socket
        // handed to another child (spawned while that one ran) would hide that one's end from
        // whoever waits for it to close.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { env in
            env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { envp?.forEach { free($0) } }

        var child: pid_t = 0
        let status =
            envp.map { envp in
                posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
            } ?? posix_spawnp(&child, executable, &actions, &attributes, argv, environ)
        if captureOutput { close(pipeFDs[1]) }
        guard status == 0 else {
            if captureOutput { close(pipeFDs[0]) }
            throw SpawnError(executable: executable, errno: status)
        }
        pid = child
        standardOutput = captureOutput ? pipeFDs[0] : nil
    }

    /// Reads standard output up to the first newline (without it); `nil` at end of file.
    package func readLine() -> String? {
        guard let fd = standardOutput else { return nil }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count == 1 {
                if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(byte)
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// What a wait status says the way Foundation's `Process.terminationStatus` does: the exit
    /// status when the child exited, else the number of the signal that ended it.
    package static func terminationStatus(_ waitStatus: Int32) -> Int32 {
        waitStatus & 0x7F == 0 ? (waitStatus >> 8) & 0xFF : waitStatus & 0x7F
    }

    /// Sends `signal` to the child.
    package func signal(_ signal: Int32) {
        if exitStatusIfEnded() == nil { kill(pid, signal) }
    }

    /// Waits for the child to end and returns its wait status. Polls (every 10 ms) rather than
    /// blocking in `waitpid`, so that callers on other threads can still ask or signal.
    @discardableResult
    package func wait() -> Int32 {
        while true {
            if let status = exitStatusIfEnded() { return status }
            usleep(10_000)
        }
    }

    /// The wait status if the child has ended, without blocking; nil while it runs. Safe from
    /// any thread: the child is reaped once, under a lock.
    package func exitStatusIfEnded() -> Int32? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            ended = status
            if let fd = standardOutput { close(fd) }
            return status
        }
    }

    /// Waits up to `timeout` for the child to end, polling so that no thread blocks in
    /// `waitpid`; its wait status, or nil when it is still running.
    package func exitStatus(within timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = exitStatusIfEnded() { return status }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return exitStatusIfEnded()
    }

    /// Asks the child to stop (SIGTERM) and waits for it.
    package func terminate() {
        signal(SIGTERM)
        wait()
    }

    deinit {
        if exitStatusIfEnded() == nil {
            kill(pid, SIGKILL)
            wait()
        }
    }
}
