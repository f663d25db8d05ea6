import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayCommandLine
import GatewayOperations
import OutputFormats
import Uplink

/// `edge-gateway enroll`: gets this gateway its JHE credentials, or shows them.
struct EnrollCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll",
        abstract: "Enrol this gateway with JupyterHealth Exchange, or show its enrolment.",
        discussion: """
            A home gateway is enrolled with the patient's invitation link (or just its code); a \
            clinic gateway with a practitioner API client key. Credentials go to \
            <state-dir>/credentials.json (mode 0600). Tokens are never printed.

            Exit status: 0 enrolled, 1 the server refused or could not be reached, 64 bad usage, \
            65 a malformed link or URL.

            Examples:
              edge-gateway enroll 'https://app.example/invite?code=jhe.example.org%3A443_Ihj8…'
              edge-gateway enroll jhe.example.org_Ihj8… --base-url https://api.jhe.example.org --device 70007
              edge-gateway enroll --client-credentials KEY --base-url https://jhe.example.org --device 70007
              edge-gateway enroll --status
            """
    )

    @Argument(help: ArgumentHelp("The invitation link or bare code.", valueName: "LINK_OR_CODE"))
    var invitation: String?

    @Option(
        name: .customLong("client-credentials"),
        help: ArgumentHelp(
            "Practitioner API client key, base64(client_id:secret); - reads it from standard input (keeps it out of the process list and shell history).",
            valueName: "KEY"))
    var clientKey: String?

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp(
            "The JHE API base URL when it is not the link's host (https://, or http:// to loopback only; default: [uplink] base_url).", valueName: "URL"))
    var baseURL: String?

    @Option(name: .customLong("device"), help: ArgumentHelp("The JHE data source id to upload as (default: found in the patient's consents).", valueName: "ID"))
    var deviceID: String?

    @Option(
        name: .customLong("fhir-path"),
        help: ArgumentHelp(
            "The FHIR base path: /FHIR/R5/ on current JHE, /fhir/r5/ on v0.0.11 and older (default: [uplink] fhir_path, else /FHIR/R5/).", valueName: "PATH"))
    var fhirPath: String?

    @Flag(name: .long, help: "Show the current enrolment instead of enrolling.")
    var status = false

    @OptionGroup var stateDirectory: StateDirectoryOption

    func validate() throws {
        let modes = [invitation != nil, clientKey != nil, status].filter { $0 }.count
        guard modes == 1 else {
            throw ValidationError("Give exactly one of: an invitation LINK_OR_CODE, --client-credentials KEY, or --status.")
        }
    }

    func run() async throws {
        let store = CredentialsFileStore(directory: stateDirectory.directory)
        if status {
            return try showStatus(store)
        }
        let uplink = try stateDirectory.loadConfiguration().uplink
        let baseURL = baseURL ?? uplink.baseURL
        if clientKey != nil && baseURL == nil {
            throw ValidationError("--client-credentials needs --base-url (the JHE server) or [uplink] base_url.")
        }
        let fhirPath = fhirPath ?? uplink.fhirPath ?? "/FHIR/R5/"
        let transport: CurlTransport
        do {
            transport = try CurlTransport(caFile: uplink.caFile)
        } catch {
            throw fail(error)
        }
        let enrolment = Enrolment(transport: transport, store: store)
        let credentials: Credentials
        do {
            if let clientKey, let baseURL {
                let key = clientKey == "-" ? (readLine() ?? "").filter { !$0.isWhitespace } : clientKey
                credentials = try await enrolment.enroll(clientCredentials: key, baseURL: baseURL, deviceID: deviceID, fhirBasePath: fhirPath)
            } else {
                credentials = try await enrolment.enroll(invitation: invitation ?? "", baseURL: baseURL, deviceID: deviceID, fhirBasePath: fhirPath)
            }
        } catch {
            throw fail(error)
        }
        print("enrolled with \(credentials.server.baseURL)")
        print(EnrolmentSummary(credentials).lines.joined(separator: "\n"))
    }

    private func showStatus(_ store: CredentialsFileStore) throws {
        let loaded: Credentials?
        do {
            loaded = try store.load()
        } catch {
            throw fail(error)
        }
        guard let credentials = loaded else {
            print("not enrolled (no \(store.path)); run `edge-gateway enroll LINK_OR_CODE`")
            throw ExitStatus.negative
        }
        print("server: \(credentials.server.baseURL)")
        print(EnrolmentSummary(credentials).lines.joined(separator: "\n"))
        if credentials.reenrolmentRequired != nil { throw ExitStatus.negative }
    }

    private func fail(_ error: UplinkError) -> ExitCode {
        StandardError.writeLine("edge-gateway enroll: \(error)")
        return ExitStatus.status(for: error)
    }
}
