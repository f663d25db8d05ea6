import Dispatch
import Foundation
import GATTHeartRate
import OfflineQueue

/// Offline queue cost on a real file: throughput, bytes written to storage per record (what
/// wears an SD card), file bytes per record, and lease+ack cost as the backlog grows.
///
/// Sensors at 1 Hz are simulated without waiting: with the default group commit (1 s or 256
/// records) N sensors at 1 Hz produce one commit of N records per second, so each simulated
/// second appends N records and commits them as one batch (`commit_max` = N, interval far away).
/// Storage writes come from `/proc/self/io` `write_bytes` (WAL, checkpoints, everything).
enum QueueBenchmark {
    static func run() {
        let finished = DispatchSemaphore(value: 0)
        Task {
            do {
                try await runAll()
            } catch {
                emit("queue: benchmark failed: \(error)")
            }
            finished.signal()
        }
        finished.wait()
    }

    /// `QUEUE_BENCH_SECONDS` (simulated seconds per sensor scenario, default 1800) and
    /// `QUEUE_BENCH_BACKLOGS` (comma-separated, default 1000,1000000,10000000) shorten a run.
    static func runAll() async throws {
        let environment = ProcessInfo.processInfo.environment
        let payload = try Payload.binary()
        let json = try Payload.json()
        emit(
            "queue: payload = one HeartRateSample as the gateway stores it, \(payload.name): \(payload.bytes.count) bytes (\(json.name): \(json.bytes.count) bytes); default page size \(QueueConfiguration().pageSize) B, WAL checkpoint every 4 MiB"
        )
        let simulated = environment["QUEUE_BENCH_SECONDS"].flatMap { Int($0) } ?? 1800
        for sensors in [1, 10, 50] {
            try await sensorsAtOneHertz(sensors, simulatedSeconds: simulated, payload: payload)
        }
        // What the daemon does: the uploader leases 100 (its default batch) and acks them.
        try await sensorsAtOneHertz(10, simulatedSeconds: simulated, payload: payload, uploadBatch: 100)
        for pageSize in [512, 1024, 2048, 4096] {
            try await sensorsAtOneHertz(10, simulatedSeconds: simulated, payload: payload, pageSize: pageSize)
        }
        // The previous defaults (JSON records, 1 KiB pages), for comparison.
        try await sensorsAtOneHertz(10, simulatedSeconds: simulated, payload: json, pageSize: 1024)
        try await burst(records: 100_000, payload: payload)
        let backlogs =
            environment["QUEUE_BENCH_BACKLOGS"]
            .map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1_000, 1_000_000, 10_000_000]
        for backlog in backlogs {
            try await leaseAndAck(backlog: backlog, payload: payload)
        }
    }

    /// N sensors at 1 Hz for `simulatedSeconds`: one commit of N records per simulated second.
    /// With `uploadBatch`, a consumer also leases that many and acks them whenever they are
    /// pending, as the daemon's uploader does while the network is up.
    static func sensorsAtOneHertz(
        _ sensors: Int, simulatedSeconds: Int, payload: Payload, pageSize: Int = QueueConfiguration().pageSize, uploadBatch: Int? = nil
    ) async throws {
        try await withScratchQueue(commitMax: sensors, pageSize: pageSize) { queue, path in
            let start = Measurement.now()
            var pending = 0
            for second in 0 ..< simulatedSeconds {
                let records = (0 ..< sensors).map { sensor in
                    NewRecord(
                        payload: payload.bytes, stream: sensorAddress(sensor), captureTime: Int64(second) * 1_000_000_000 + now0, version: payload.version)
                }
                try await queue.append(contentsOf: records)
                pending += sensors
                if let uploadBatch, pending >= uploadBatch {
                    let lease = try await queue.lease(max: uploadBatch)
                    try await queue.ack(lease.ids)
                    pending -= lease.records.count
                }
            }
            let records = sensors * simulatedSeconds
            let upload = uploadBatch.map { ", lease(\($0))+ack whenever \($0) are pending" } ?? ""
            report(
                "\(sensors) sensor(s) x 1 Hz\(upload), \(simulatedSeconds) simulated s, page \(pageSize) B, \(payload.name)", records: records,
                since: start, path: path)
        }
    }

    /// As fast as concurrent producers can push, default group commit (256 records).
    static func burst(records: Int, payload: Payload) async throws {
        try await withScratchQueue(commitMax: 256) { queue, path in
            let producers = 16
            let chunk = 16
            let start = Measurement.now()
            try await withThrowingTaskGroup { group in
                for producer in 0 ..< producers {
                    group.addTask {
                        for round in 0 ..< (records / producers / chunk) {
                            try await queue.append(
                                contentsOf: (0 ..< chunk).map { index in
                                    NewRecord(
                                        payload: payload.bytes, stream: sensorAddress(producer),
                                        captureTime: now0 + Int64(round * chunk + index), version: payload.version)
                                })
                        }
                    }
                }
                try await group.waitForAll()
            }
            report("burst, \(producers) producers, commit_max 256", records: records, since: start, path: path)
        }
    }

    /// Builds a backlog (commits of up to 10 000 records), then times lease(100) + ack of the leased ids, refilling after each cycle (untimed).
    static func leaseAndAck(backlog: Int, payload: Payload) async throws {
        let chunk = min(10_000, backlog)
        // commit_max 100: a 100-record refill commits at once, and so does each bigger chunk.
        try await withScratchQueue(commitMax: 100) { queue, path in
            let buildStart = ContinuousClock.now
            var built = 0
            while built < backlog {
                let count = min(chunk, backlog - built)
                try await queue.append(
                    contentsOf: (0 ..< count).map { index in
                        NewRecord(payload: payload.bytes, stream: sensorAddress(index % 10), captureTime: now0 + Int64(built + index), version: payload.version)
                    })
                built += count
            }
            let buildSeconds = seconds(ContinuousClock.now - buildStart)
            let cycles = 300
            var elapsed: [Double] = []
            var cpu = 0.0
            for cycle in 0 ..< cycles {
                let start = ContinuousClock.now
                let cpuStart = processCPUSeconds()
                let lease = try await queue.lease(max: 100)
                try await queue.ack(lease.ids)
                cpu += processCPUSeconds() - cpuStart
                elapsed.append(seconds(ContinuousClock.now - start))
                // Untimed refill, so every cycle leases from a backlog of the stated size.
                try await queue.append(
                    contentsOf: lease.records.indices.map { index in
                        NewRecord(
                            payload: payload.bytes, stream: sensorAddress(index % 10), captureTime: now0 + Int64(backlog + cycle * 100 + index),
                            version: payload.version)
                    })
            }
            elapsed.sort()
            let mean = elapsed.reduce(0, +) / Double(cycles)
            emit(
                "queue: lease(100)+ack at backlog \(backlog): mean \(format(mean * 1e3, 3)) ms, median \(format(elapsed[cycles / 2] * 1e3, 3)) ms, p99 \(format(elapsed[cycles * 99 / 100] * 1e3, 3)) ms per 100 records, CPU \(format(cpu / Double(cycles) * 1e3, 3)) ms (backlog built in \(format(buildSeconds, 1)) s, file \(format(Double(fileBytes(path)) / 1_048_576, 1)) MiB)"
            )
        }
    }

    // MARK: - Helpers

    /// A capture time base; bounds are off so nothing is evicted.
    static let now0 = SystemQueueClock().nanosecondsSince1970()

    static func withScratchQueue(commitMax: Int, pageSize: Int = QueueConfiguration().pageSize, _ body: (OfflineQueue, String) async throws -> Void)
        async throws
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("queue-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = QueueConfiguration()
        configuration.commitMax = commitMax
        configuration.pageSize = pageSize
        configuration.commitInterval = .seconds(3600)
        configuration.maxRecords = .max
        configuration.maxBytes = .max
        configuration.maxAge = .seconds(100 * 365 * 86_400)
        configuration.logger.logLevel = .error
        let path = directory + "/queue.sqlite"
        let queue = try OfflineQueue(path: path, configuration: configuration)
        try await body(queue, path)
        await queue.close()
    }

    /// Prints throughput, storage bytes written per record and file bytes per record.
    static func report(_ label: String, records: Int, since start: Measurement, path: String) {
        let end = Measurement.now()
        let elapsed = seconds(end.time - start.time)
        let written = Double(end.writeBytes - start.writeBytes)
        emit(
            "queue: \(label): \(records) records in \(format(elapsed, 2)) s = \(Int(Double(records) / elapsed)) records/s; "
                + "\(Int(written / Double(records))) bytes written to storage per record; "
                + "\(Int(Double(fileBytes(path)) / Double(records))) database bytes per record; peak RSS \(format(EdgeGatewayBench.peakRSSMiB, 1)) MiB")
    }

    /// A record payload in one of the formats the gateway's `SampleRecordCodec` reads.
    struct Payload {
        let bytes: Data
        let version: Int
        let name: String

        /// A realistic sample: a strap with skin contact and two RR intervals, bound to a patient.
        static let sample = HeartRateSample(
            id: UUID(), sensor: BluetoothAddress("F0:1D:2E:3C:4B:5A")!, patientID: "40001",
            measurement: HeartRateMeasurement(bpm: 78, contact: .detected, rrIntervals: [722, 712]),
            captured: CaptureTime(
                wallClockNanoseconds: now0, wallClockSynchronized: true,
                monotonicNanoseconds: 123_456_789_000, bootID: UUID()))

        /// What the gateway writes: record version 2, `HeartRateSample.binaryEncoded()`.
        static func binary() throws -> Payload {
            Payload(bytes: Data(try sample.binaryEncoded()), version: 2, name: "binary v2")
        }

        /// What earlier builds wrote: record version 1, the sample's JSON.
        static func json() throws -> Payload {
            Payload(bytes: try JSONEncoder().encode(sample), version: 1, name: "JSON v1")
        }
    }

    /// The stream key of simulated strap `index`: an address, as the gateway keys records.
    static func sensorAddress(_ index: Int) -> String {
        BluetoothAddress(bytes: [0xF0, 0x1D, 0x2E, 0x3C, UInt8(index >> 8), UInt8(index & 0xFF)])!.description
    }

    /// CPU time used by the process so far (user + system): unlike wall time, it leaves out
    /// waiting for `fsync`, which on a shared disk varies far more than the queue's own work.
    static func processCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    static func fileBytes(_ path: String) -> Int64 {
        [path, path + "-wal"].reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? 0)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Prints `line` at once (stdout is block-buffered when redirected; runs take minutes).
    static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        DecodeBenchmark.format(value, decimals)
    }

    /// A point in time with the process's cumulative storage writes.
    struct Measurement {
        let time: ContinuousClock.Instant
        let writeBytes: Int

        static func now() -> Measurement {
            let io = (try? String(contentsOfFile: "/proc/self/io", encoding: .utf8)) ?? ""
            let line = io.split(separator: "\n").first { $0.hasPrefix("write_bytes:") }
            let bytes = line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
            return Measurement(time: .now, writeBytes: bytes)
        }
    }
}
