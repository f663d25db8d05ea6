import ArgumentParser
import ConsoleSecurity
import GatewayCommandLine
import Glibc
import OutputFormats

/// `edge-gateway web`: the console in the browser.
struct WebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Set the console's password.",
        discussion: """
            The console is served by `edge-gateway run` on [web] listen. On a loopback address it \
            needs no password (reach it through an SSH tunnel); on any other address it is served \
            over TLS and needs the password set here. `edge-gateway status` prints the certificate's \
            fingerprint, to compare with the one the browser shows.

            Examples:
              edge-gateway web set-password
              printf '%s\\n' "$PASSWORD" | edge-gateway web set-password --password-stdin
            """,
        subcommands: [WebSetPasswordCommand.self]
    )
}

/// `edge-gateway web set-password`: stores a salted PBKDF2 hash of a new password, 0600 in the
/// state directory. The daemon reads it at each login (no restart), and a changed password
/// ends every session opened under the old one.
struct WebSetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-password",
        abstract: "Set the password of the console served beyond loopback.",
        discussion: "Asks twice on the terminal without echo, or reads one line with --password-stdin. At least \(ConsolePassword.minimumLength) characters."
    )

    @OptionGroup var state: StateDirectoryOption

    @Flag(help: "Read the password from the first line of standard input (for scripts).")
    var passwordStdin = false

    func run() async throws {
        let password: String
        if passwordStdin {
            password = readLine(strippingNewline: true) ?? ""
        } else {
            guard isatty(STDIN_FILENO) == 1 else {
                StandardError.writeLine("edge-gateway web set-password: standard input is not a terminal; pass --password-stdin to read the password from it")
                throw ExitStatus.usage
            }
            password = Self.ask("New console password: ")
            guard Self.ask("Again: ") == password else {
                StandardError.writeLine("edge-gateway web set-password: the two entries differ; nothing was changed")
                throw ExitStatus.usage
            }
        }
        do {
            try ConsolePassword.hashing(password).save(stateDirectory: state.directory)
        } catch {
            StandardError.writeLine("edge-gateway web set-password: \(error)")
            throw error.code == .passwordRefused ? ExitStatus.usage : ExitStatus.cannotCreate
        }
        StandardOutput.writeLine("stored the console password in \(state.directory)/\(ConsolePassword.fileName); sessions opened with the old one end")
    }

    /// One line from the terminal, not echoed.
    private static func ask(_ prompt: String) -> String {
        _ = Array(prompt.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            StandardError.writeLine("")
        }
        return readLine(strippingNewline: true) ?? ""
    }
}
