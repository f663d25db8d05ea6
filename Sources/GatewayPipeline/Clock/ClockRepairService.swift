import Logging
import OfflineQueue
import ServiceLifecycle

/// Releases held samples (``HeldSamples``) once the wall clock synchronises, or at once when
/// `[gateway] hold_until_clock_sync` is off (a box whose clock is right without NTP: the
/// operator vouches for it, including for samples held before the switch).
///
/// While samples are held the operator hears of it once per episode, with the fix, and
/// `status`, `queue stats` and the metrics count them.
package struct ClockRepairService: Service {
    let held: OfflineQueue
    let queue: OfflineQueue
    let clock: CaptureClock
    let counters: DaemonCounters
    let logger: Logger
    /// Raised by the intake when it holds samples; raised here for the uploader when samples
    /// are released into the upload queue.
    var heldCommitted = ChangeSignal()
    var committed = ChangeSignal()
    /// `[gateway] hold_until_clock_sync`.
    var holdUnsynchronized = true
    /// How often the clock is checked while samples are held. With none held the service
    /// sleeps until the intake holds some.
    var checkInterval: Duration = .seconds(5)

    /// Every field given: the memberwise initializer, which Swift would make only `internal`.
    package init(
        held: OfflineQueue,
        queue: OfflineQueue,
        clock: CaptureClock,
        counters: DaemonCounters,
        logger: Logger,
        heldCommitted: ChangeSignal = ChangeSignal(),
        committed: ChangeSignal = ChangeSignal(),
        holdUnsynchronized: Bool = true,
        checkInterval: Duration = .seconds(5)
    ) {
        self.held = held
        self.queue = queue
        self.clock = clock
        self.counters = counters
        self.logger = logger
        self.heldCommitted = heldCommitted
        self.committed = committed
        self.holdUnsynchronized = holdUnsynchronized
        self.checkInterval = checkInterval
    }

    /// Releases held samples whenever the clock is synchronised, until shutdown.
    package func run() async throws {
        var holding = false
        while !Task.isCancelledOrShuttingDown {
            var failed = false
            do {
                try await releaseIfAllowed()
                let stats = try await held.stats()
                let waiting = stats.pending + stats.leased
                counters.refresh { $0.setSamplesAwaitingClock(waiting) }
                if waiting > 0 && !holding {
                    logger.warning(
                        "the system clock is not synchronised: samples wait in \(HeldSamples.fileName) and are not uploaded until it is. Enable NTP (`timedatectl set-ntp true`); if this box's clock is right without NTP, set [gateway] hold_until_clock_sync = false; `edge-gateway queue release-held` releases them now",
                        metadata: ["held": "\(waiting)"])
                }
                holding = waiting > 0
            } catch {
                logger.error("releasing held samples failed; will retry", metadata: ["error": "\(error)"])
                failed = true
            }
            if holding || failed {
                await ServicePause.sleep(for: checkInterval)
            } else {
                await heldCommitted.wait()
            }
        }
    }

    /// Releases what is held while the clock is synchronised or the hold is off; logs what moved.
    @discardableResult
    func releaseIfAllowed() async throws -> HeldSamples.Release {
        let released = try await HeldSamples(held: held, queue: queue).release(now: clock.now) {
            !holdUnsynchronized || clock.source.isSynchronized()
        }
        if released.total > 0 {
            committed.raise()
            log(released)
        }
        return released
    }

    private func log(_ released: HeldSamples.Release) {
        let why = clock.source.isSynchronized() ? "the clock is synchronised" : "hold_until_clock_sync is off"
        logger.notice(
            "\(why): released held samples, re-stamped from the monotonic clock",
            metadata: [
                "repaired": "\(released.repaired)", "unrepairable": "\(released.unrepairable)", "undecodable": "\(released.undecodable)",
            ])
    }
}
