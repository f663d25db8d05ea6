import ConsoleSecurity
import Glibc
import ProcessThreads
import Synchronization

/// Who may use a console served beyond loopback: the password check, the sessions it opens, and
/// the brake on guessing.
///
/// A session is a random 256-bit cookie (`HttpOnly; Secure; SameSite=Strict`), kept only in
/// memory (a restart logs everyone out) and ended by logout, after `lifetime`, or when the
/// password changes (`web set-password`: the file is checked at each request). Each session has
/// its own CSRF token, which every state-changing request must carry (`X-CSRF-Token`).
///
/// Failed logins are counted and slowed: after the n-th failure in a row from one address,
/// that address waits 2^(n-1) s (at most a minute) before its next try, and one guess is
/// checked at a time box-wide (a PBKDF2 costs up to a second on a Pi): a flood of guesses
/// costs the daemon one core at most, never its ingest.
final class ConsoleSessions: Sendable {
    static let cookieName = "egw_session"
    static let lifetime = Duration.seconds(12 * 3600)
    static let maximumSessions = 64

    struct Session: Sendable {
        let csrf: String
        let expires: ContinuousClock.Instant
    }

    private struct State {
        var sessions: [String: Session] = [:]
        /// The password file's identity when the sessions were opened (inode, size, mtime).
        var passwordStamp: [Int] = []
        var failures: [String: (count: Int, retryAt: ContinuousClock.Instant)] = [:]
        var checking = false
    }

    private let stateDirectory: String
    private let firstWait: Duration
    private let state = Mutex(State())

    /// Sessions checked against the password in `stateDirectory`; the first failure from an
    /// address makes it wait `firstWait`, each next one twice as long (at most a minute).
    init(stateDirectory: String, firstWait: Duration = .seconds(1)) {
        self.stateDirectory = stateDirectory
        self.firstWait = firstWait
    }

    // MARK: Logging in

    /// How a login attempt ended.
    enum Login: Sendable, Equatable {
        /// A new session: its cookie value.
        case opened(token: String)
        case refused
        /// Too soon after a failure, or another guess is being checked: try after this long.
        case wait(Duration)
        /// No password can be read: the message says why.
        case unavailable(String)
    }

    /// Checks `password` for a client at `peer` (its address).
    func logIn(password: String, from peer: String) async -> Login {
        let now = ContinuousClock.now
        let admitted: Duration? = state.withLock { state in
            if let failure = state.failures[peer], failure.retryAt > now { return now.duration(to: failure.retryAt) }
            if state.checking { return .seconds(1) }
            state.checking = true
            return nil
        }
        if let wait = admitted { return .wait(wait) }
        defer { state.withLock { $0.checking = false } }
        let stored: ConsolePassword?
        do {
            stored = try ConsolePassword.load(stateDirectory: stateDirectory)
        } catch {
            return .unavailable(error.message)
        }
        guard let stored else { return .unavailable("no console password is set; set one with edge-gateway web set-password") }
        let matches = await Self.offThePool { stored.matches(password) }
        let stamp = passwordStamp()
        return state.withLock { state in
            guard matches else {
                let count = (state.failures[peer]?.count ?? 0) + 1
                state.failures[peer] = (count, .now + min(.seconds(60), firstWait * (1 << min(count - 1, 6))))
                if state.failures.count > 4096 { state.failures.removeAll() }
                return .refused
            }
            state.failures[peer] = nil
            Self.forgetIfPasswordChanged(&state, stamp)
            state.sessions = state.sessions.filter { $0.value.expires > .now }
            if state.sessions.count >= Self.maximumSessions, let oldest = state.sessions.min(by: { $0.value.expires < $1.value.expires })?.key {
                state.sessions[oldest] = nil
            }
            let token = Self.randomToken()
            state.sessions[token] = Session(csrf: Self.randomToken(), expires: .now + Self.lifetime)
            return .opened(token: token)
        }
    }

    /// The failures in a row from `peer` (for the log).
    func failuresInARow(from peer: String) -> Int {
        state.withLock { $0.failures[peer]?.count ?? 0 }
    }

    // MARK: Requests

    /// The live session whose cookie `request` carries, if any.
    func session(for request: HTTPRequest) -> (token: String, session: Session)? {
        guard let token = Self.cookie(Self.cookieName, in: request.header("Cookie")), let session = live(token) else { return nil }
        return (token, session)
    }

    /// The session `token` while it lives; a changed password file first ends every session.
    private func live(_ token: String) -> Session? {
        let stamp = passwordStamp()
        return state.withLock { state in
            Self.forgetIfPasswordChanged(&state, stamp)
            guard let session = state.sessions[token] else { return nil }
            guard session.expires > .now else {
                state.sessions[token] = nil
                return nil
            }
            return session
        }
    }

    /// Ends every session when the password file is not the one they were opened under.
    private static func forgetIfPasswordChanged(_ state: inout State, _ stamp: [Int]) {
        guard stamp != state.passwordStamp else { return }
        state.sessions = [:]
        state.passwordStamp = stamp
    }

    /// `events` for as long as the session `token` lives: checked before each event, so an open
    /// page stops receiving within an event of its session's end.
    func whileLive(_ token: String, _ events: EventFeed) -> EventFeed {
        events.whileAllowed { [self] in live(token) != nil }
    }

    /// Ends the session `token`.
    func logOut(_ token: String) {
        _ = state.withLock { $0.sessions.removeValue(forKey: token) }
    }

    // MARK: Helpers

    /// The value of cookie `name` in a `Cookie` header.
    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.drop { $0 == " " } }
            if parts.count == 2, parts[0] == name { return String(parts[1]) }
        }
        return nil
    }

    /// 32 random bytes as 64 hex digits (`getrandom`, through Swift's system generator).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: (0 ..< 64).map { _ in digits[Int(generator.next() % 16)] }, as: UTF8.self)
    }

    private func passwordStamp() -> [Int] {
        var status = stat()
        guard stat("\(stateDirectory)/\(ConsolePassword.fileName)", &status) == 0 else { return [] }
        return [Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
    }

    /// Runs `work` (a PBKDF2: up to a second of CPU) on a thread of its own, not on one of the
    /// few threads Swift's concurrency shares with the daemon's tasks.
    private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DetachedThread.start(name: "egw-login") { continuation.resume(returning: work()) }
        }
    }
}
