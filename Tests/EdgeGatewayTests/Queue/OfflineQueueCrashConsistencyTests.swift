import Foundation
import GatewayTestSupport
import OfflineQueue
import Testing

/// The durability contract under `kill -9`: a child appends numbered records as fast as it can
/// and prints each number once its group commit returned; the test kills it at seeded random
/// moments, restarts it, consumes (leases and acks) some records in between, and finally checks
/// that every number the child ever reported is in the queue or was acked, exactly once.
///
/// `QUEUE_KILL_CYCLES` (default 50) and `QUEUE_KILL_SEED` change the run (`make soak`).
@Suite("OfflineQueue crash consistency")
struct OfflineQueueCrashConsistencyTests {
    @Test("every accepted record survives kill -9 exactly once, acked ones accounted for")
    func killNineCycles() async throws {
        let environment = ProcessInfo.processInfo.environment
        let cycles = environment["QUEUE_KILL_CYCLES"].flatMap { Int($0) } ?? 50
        let seed = environment["QUEUE_KILL_SEED"].flatMap { UInt64($0) } ?? 0x5EED_0F_0FF1_1E
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory("queue-crash")
        defer { directory.remove() }
        let queuePath = directory.file("queue.sqlite")
        var ledger = AcceptanceLedger()

        for cycle in 0 ..< cycles {
            let child = try KillableProcess(
                ["append-numbered", "--state-dir", directory.path, "--first", "\(cycle * 100_000_000)"],
                product: "edge-gateway-lab", outputPath: directory.file("cycle-\(cycle).out"))
            if cycle % 2 == 1 {
                // Odd cycles: kill while appending is in full swing; even ones: at any moment,
                // including during start-up, migration and recovery.
                try await waitUntil { child.hasOutput || !child.isRunning }
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0 ... 120, using: &random)))
            await child.killAndWait()
            #expect(child.wasKilled, "cycle \(cycle) (seed \(seed)): the child exited by itself: \(child.errorText())")
            ledger.recordAccepted(try child.outputLines(), cycle: cycle)

            if cycle % 5 == 4 {
                let queue = try OfflineQueue(path: queuePath)
                #expect(queue.recovery == nil, "cycle \(cycle) (seed \(seed)): \(String(describing: queue.recovery))")
                let lease = try await queue.lease(max: Int.random(in: 1 ... 400, using: &random))
                let acked = lease.records.filter { _ in Bool.random(using: &random) }
                #expect(try await queue.ack(acked.map(\.id)) == acked.count)
                ledger.recordAcked(acked)
                await queue.close()
            }
        }

        let queue = try OfflineQueue(path: queuePath)
        #expect(queue.recovery == nil)
        var present: [QueuedRecord] = []
        while true {
            let page = try await queue.records(after: present.last?.id ?? 0, limit: 10_000)
            guard !page.isEmpty else { break }
            present += page
        }
        await queue.close()

        print(
            "crash test: seed \(seed), \(cycles) kill -9 cycles (\(ledger.cyclesWithAcceptance) with accepted records), \(ledger.accepted.count) accepted, \(ledger.acked.count) acked, \(present.count) present"
        )
        let problems = ledger.check(present: present)
        #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(10))")
        #expect(ledger.cyclesWithAcceptance >= cycles / 3, "seed \(seed): too few cycles got records accepted")
        #expect(ledger.accepted.count > 1000)
    }
}
