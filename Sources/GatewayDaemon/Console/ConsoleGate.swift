import Logging

/// The console beyond loopback: every request but the login page needs a session, every
/// state-changing one its CSRF token, and the login itself is slowed and counted
/// (`ConsoleSessions`). In front of `ConsoleRoutes`, over TLS only (the daemon refuses to serve
/// beyond loopback otherwise).
struct ConsoleGate: Sendable {
    let routes: ConsoleRoutes
    let sessions: ConsoleSessions
    let logger: Logger

    /// The browser keeps to HTTPS for this host a year, and sends the cookie only there.
    static let transportSecurity = ("Strict-Transport-Security", "max-age=31536000")

    func handle(_ request: HTTPRequest) async -> HTTPReply {
        var reply = await route(request)
        reply.headers += ConsoleRoutes.securityHeaders + [Self.transportSecurity]
        return reply
    }

    private func route(_ request: HTTPRequest) async -> HTTPReply {
        switch (request.method, request.path) {
        case ("GET", "/login"), ("HEAD", "/login"):
            return ConsoleLoginPage.reply(200, "OK", message: nil)
        case ("GET", "/console.css"), ("HEAD", "/console.css"):
            return await routes.route(request)
        case ("POST", "/login"):
            return await logIn(request)
        default:
            break
        }
        guard let (token, session) = sessions.session(for: request) else {
            if request.method == "GET" && request.path == "/" { return Self.redirect(to: "/login") }
            return .text(401, "Unauthorized", "log in first, at /login\n")
        }
        if request.method != "GET" && request.method != "HEAD" {
            guard request.header("X-CSRF-Token") == session.csrf, Self.sameOrigin(request, scheme: "https") else {
                logger.warning("the console refused a request without its CSRF token", metadata: ["path": "\(request.path)", "client": "\(request.peer)"])
                return .text(403, "Forbidden", "the request did not carry this session's CSRF token; reload the page\n")
            }
        }
        switch (request.method, request.path) {
        case ("POST", "/logout"):
            sessions.logOut(token)
            logger.notice("console logout", metadata: ["client": "\(request.peer)"])
            var reply = HTTPReply.text(200, "OK", "logged out\n")
            reply.headers.append(("Set-Cookie", "\(ConsoleSessions.cookieName)=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0"))
            return reply
        case ("GET", "/api/events"):
            // An open page's stream ends with its session (logout elsewhere, a new password, 12 h).
            var reply = await routes.route(request)
            reply.events = reply.events.map { sessions.whileLive(token, $0) }
            return reply
        case ("GET", "/api/session"):
            let seconds = max(0, Int(ContinuousClock.now.duration(to: session.expires).components.seconds))
            return HTTPReply(
                status: 200, reason: "OK", headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                body: Array("{\"csrf\":\"\(session.csrf)\",\"expiresInSeconds\":\(seconds),\"session\":true}".utf8))
        default:
            return await routes.route(request)
        }
    }

    private func logIn(_ request: HTTPRequest) async -> HTTPReply {
        guard Self.sameOrigin(request, scheme: "https") else {
            return .text(403, "Forbidden", "a login must come from the console's own page\n")
        }
        let password = Self.formField("password", in: request.body) ?? ""
        switch await sessions.logIn(password: password, from: request.peer) {
        case .opened(let token):
            logger.notice("console login", metadata: ["client": "\(request.peer)"])
            var reply = Self.redirect(to: "/")
            reply.headers.append(
                (
                    "Set-Cookie",
                    "\(ConsoleSessions.cookieName)=\(token); Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=\(ConsoleSessions.lifetime.components.seconds)"
                ))
            return reply
        case .refused:
            let inARow = sessions.failuresInARow(from: request.peer)
            logger.warning(
                "console login refused: wrong password", metadata: ["client": "\(request.peer)", "failures_in_a_row": "\(inARow)"])
            return ConsoleLoginPage.reply(401, "Unauthorized", message: "Wrong password.")
        case .wait(let wait):
            let seconds = max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
            var reply = ConsoleLoginPage.reply(429, "Too Many Requests", message: "Too many tries: wait \(seconds) s and try again.")
            reply.headers.append(("Retry-After", "\(seconds)"))
            return reply
        case .unavailable(let reason):
            logger.error("console login impossible", metadata: ["error": "\(reason)"])
            return ConsoleLoginPage.reply(503, "Service Unavailable", message: "The gateway cannot check passwords now: \(reason)")
        }
    }

    // MARK: Helpers

    static func redirect(to path: String) -> HTTPReply {
        HTTPReply(status: 303, reason: "See Other", headers: [("Location", path), ("Cache-Control", "no-store")])
    }

    /// Whether a browser says the request comes from this server's own page: `Sec-Fetch-Site`
    /// where it sends it (every current browser; `Origin` is then `null` for a form, under the
    /// page's `no-referrer` policy), else `Origin`. A client that sends neither (curl) is not a
    /// browser another site could drive.
    static func sameOrigin(_ request: HTTPRequest, scheme: String) -> Bool {
        if let site = request.header("Sec-Fetch-Site") { return site == "same-origin" }
        guard let origin = request.header("Origin") else { return true }
        return origin == "\(scheme)://\(request.header("Host") ?? "")"
    }

    /// A field of an `application/x-www-form-urlencoded` body, decoded.
    static func formField(_ name: String, in body: [UInt8]) -> String? {
        for pair in body.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let key = percentDecoded(parts[0]), key == name else { continue }
            return percentDecoded(parts[1])
        }
        return nil
    }

    private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> String? {
        var decoded: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                decoded.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                    let value = UInt8(String(decoding: bytes[index + 1 ... index + 2], as: UTF8.self), radix: 16)
                else { return nil }
                decoded.append(value)
                index += 2
            } else {
                decoded.append(byte)
            }
            index += 1
        }
        return String(validating: decoded, as: UTF8.self)
    }
}
