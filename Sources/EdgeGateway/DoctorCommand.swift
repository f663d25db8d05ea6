import ArgumentParser
import GatewayCommandLine
import GatewayOperations
import OutputFormats

/// `edge-gateway doctor`: the technician's check-list before leaving a site.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check Bluetooth, JHE, the token, consent, disk space and the clock, each with its fix.",
        discussion: """
            Checks, in order: bluetoothd (org.bluez owned on the system bus; \
            DBUS_SYSTEM_BUS_ADDRESS is honoured), adapter ([bluetooth] adapter present and \
            powered), sensors (every bound strap known to bluetoothd), jhe (TCP+TLS+HTTP to the \
            enrolled server, which must be [uplink] base_url if that is set; before enrolment, \
            base_url), token (enrolled, not marked for \
            re-enrolment, unexpired, accepted by an authenticated GET of the user profile; it is \
            never renewed here, the daemon owns that), consent (heart rate consented, per bound \
            patient), disk space (at least 256 MB free for the state directory), clock \
            (synchronised). Each prints `✓ name: detail` or `✗ name: what is wrong — how to fix`.

            --json prints one object per check, {"check","ok","detail","fix"}, then \
            {"passed":N,"failed":N}.

            Exit status: 0 every check passed, 1 any failed, 78 a bad configuration file.
            """
    )

    @OptionGroup var options: OperationsOptions

    func run() async throws {
        let (configuration, directory) = try options.resolve()
        let checks = await Doctor(stateDirectory: directory, configuration: configuration).run()
        let failed = checks.filter { !$0.passed }.count
        if options.json {
            for check in checks { StandardOutput.writeLine(check.jsonLine) }
            StandardOutput.writeLine("{\"passed\":\(checks.count - failed),\"failed\":\(failed)}")
        } else {
            for check in checks { StandardOutput.writeLine(check.line) }
            StandardOutput.writeLine(failed == 0 ? "all \(checks.count) checks passed" : "\(failed) of \(checks.count) checks failed")
        }
        if failed > 0 { throw ExitStatus.negative }
    }
}
