import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Waits for SIGINT or SIGTERM, so long-running commands can clean up (stop child daemons,
/// flush state) instead of dying mid-way.
public enum TerminationSignals {
    /// Returns the signal number once SIGINT or SIGTERM arrives.
    public static func wait() async -> Int32 {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        var received = SIGTERM
        for await number in stream {
            received = number
            break
        }
        sources.forEach { $0.cancel() }
        return received
    }
}
