import JHESimulator
import OfflineQueue
import Uplink

/// An enrolled uplink for the uploader's tests: a running JHE simulator, the credentials of an
/// enrolment with it in `directory`, a queue there, and the client the uploader uses.
struct EnrolledUplink {
    let jhe: JHESimulator
    let transport: CurlTransport
    let queue: OfflineQueue
    let tokens: TokenManager
    let client: JHEClient

    static func start(in directory: String) async throws -> EnrolledUplink {
        let jhe = JHESimulator()
        _ = try await jhe.start()
        let transport = try CurlTransport()
        let store = CredentialsFileStore(directory: directory)
        _ = try await Enrolment(transport: transport, store: store).enroll(invitation: await jhe.issueInvitation())
        let tokens = TokenManager(store: store, transport: transport)
        return EnrolledUplink(
            jhe: jhe, transport: transport, queue: try OfflineQueue(path: directory + "/queue.sqlite"), tokens: tokens,
            client: JHEClient(tokens: tokens, transport: transport))
    }

    func stop() async throws {
        await queue.close()
        await jhe.stop()
    }
}
