import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL

/// A loopback stand-in for JupyterHealth Exchange that behaves as `docs/jhe-contract.md`
/// describes, failures included, with fault injection for tests and demos.
///
/// It starts with one organisation, one study consenting heart rate and RR intervals, data
/// source 70001 (`personal_device`) and patient 40001; `issueInvitation()` gives a link.
package final class JHESimulator: Sendable {
    let state: SimulatorState
    private let host: String
    private let requestedPort: Int
    private let tls: SimulatorTLS?
    private let running = RunningServer()

    /// A simulator; `port` 0 picks a free one. `tokenLifetime` is `expires_in` in seconds
    /// (JHE's is two weeks). With `tls` it serves HTTPS with that certificate.
    package init(host: String = "127.0.0.1", port: Int = 0, tokenLifetime: Int = 1_209_600, tls: SimulatorTLS? = nil) {
        self.host = host
        requestedPort = port
        self.tls = tls
        state = SimulatorState(tokenLifetime: tokenLifetime)
    }

    /// Starts serving and returns the base URL (`http://127.0.0.1:PORT`).
    package func start() async throws -> String {
        let router = Router()
        router.on("**", method: .get) { request, context in try await self.serve(request, context) }
        router.on("**", method: .post) { request, context in try await self.serve(request, context) }
        let bound = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            server: try tls.map { try .tls(.http1(), tlsConfiguration: try $0.serverConfiguration()) } ?? .http1(),
            configuration: .init(address: .hostname(host, port: requestedPort), serverName: "jhe-simulator"),
            onServerRunning: { channel in
                bound.continuation.yield(channel.localAddress?.port ?? 0)
                bound.continuation.finish()
            },
            logger: Logger(label: "jhe-simulator", factory: { _ in SwiftLogNoOpLogHandler() }))
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var port = 0
        for await value in bound.stream { port = value }
        guard port > 0 else {
            task.cancel()
            throw SimulatorError(message: "the simulator could not listen on \(host):\(requestedPort)")
        }
        let baseURL = "\(tls == nil ? "http" : "https")://\(host):\(port)"
        await running.set(task: task, baseURL: baseURL)
        _ = await state.addPatientIfNone()
        return baseURL
    }

    /// Stops serving.
    package func stop() async {
        await running.stop()
    }

    /// The base URL once started.
    package var baseURL: String {
        get async { await running.baseURL ?? "" }
    }

    private func serve(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 256 * 1024 * 1024)
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters {
            query[String(name).removingPercentEncoding ?? String(name)] = String(value).removingPercentEncoding ?? String(value)
        }
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let incoming = SimulatorRequest(
            method: request.method.rawValue, path: request.uri.path, query: query, headers: headers,
            body: Data(buffer: body))
        let (fault, delay) = await state.takeFault(for: incoming.path)
        if delay > .zero { try await Task.sleep(for: delay) }
        var reply: SimulatorReply
        switch fault {
        case .fail(let status, let retryAfter):
            reply = .detail(status, "Simulated failure.", headers: retryAfter.map { [("Retry-After", String($0))] } ?? [])
        case .drop, nil:
            reply = await state.route(incoming, baseURL: await baseURL)
        case .unreachable:
            return Response(
                status: .serviceUnavailable, headers: [.contentLength: "1"],
                body: ResponseBody { _ in
                    throw SimulatorError(message: "network unreachable (injected fault)")
                })
        }
        var fields = HTTPFields()
        for (name, value) in reply.headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        let bytes = reply.body
        if case .drop = fault {
            fields[.contentLength] = String(bytes.count)
            return Response(
                status: .init(code: reply.status), headers: fields,
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(bytes: bytes.prefix(bytes.count / 2)))
                    throw SimulatorError(message: "connection dropped mid-reply (injected fault)")
                })
        }
        return Response(status: .init(code: reply.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// The certificate an HTTPS simulator presents: PEM files of the chain and its private key.
package struct SimulatorTLS: Sendable {
    /// PEM certificate chain, leaf first.
    package let certificateChainPath: String
    /// PEM private key of the leaf.
    package let privateKeyPath: String

    /// A certificate from its PEM files.
    package init(certificateChainPath: String, privateKeyPath: String) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
    }

    func serverConfiguration() throws -> TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificateChainPath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: privateKeyPath, format: .pem)))
    }
}

/// A simulator failure (it could not start).
package struct SimulatorError: Error, CustomStringConvertible {
    /// What went wrong.
    package let message: String
    /// The message alone, as the simulator's callers print it.
    package var description: String { message }
}

/// The server task and its URL, set once started.
private actor RunningServer {
    var task: Task<Void, any Error>?
    var baseURL: String?

    func set(task: Task<Void, any Error>, baseURL: String) {
        self.task = task
        self.baseURL = baseURL
    }

    func stop() async {
        task?.cancel()
        _ = await task?.result
        task = nil
    }
}
