import Glibc
import UnixSignals

/// Waits for SIGINT or SIGTERM, so long-running commands can clean up (stop child daemons,
/// flush state) instead of dying mid-way. The daemon itself gets these through its service
/// group; this is for the commands that run no service group.
package enum TerminationSignals {
    /// Returns the signal once SIGINT or SIGTERM arrives (swift-service-lifecycle's
    /// `UnixSignalsSequence`, which traps them for as long as it is iterated).
    package static func wait() async -> UnixSignal {
        // Ignored first, as the daemon does with SIGHUP: a signal that arrives before the
        // sequence has its Dispatch sources must not end the process (the sources still see it).
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        for await signal in await UnixSignalsSequence(trapping: .sigint, .sigterm) {
            return signal
        }
        return .sigterm
    }
}
