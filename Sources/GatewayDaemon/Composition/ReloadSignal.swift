import GatewayPipeline
import Logging
import ServiceLifecycle
import UnixSignals

/// SIGHUP (`systemctl reload edge-gateway`, or a command that changed the state behind the
/// daemon's back): re-read the sensor bindings and look at the upload queue now.
struct ReloadSignal: Service {
    /// The signals one SIGHUP raises.
    let raises: [ChangeSignal]
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in await UnixSignalsSequence(trapping: .sighup) {
                logger.notice("SIGHUP: re-reading the sensor bindings and the upload queue")
                for signal in raises { signal.raise() }
            }
        }
    }
}
