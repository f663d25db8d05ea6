import Foundation
import GATTHeartRate
import JHESimulator
import Uplink

/// Uplink throughput: encoding samples into Observation Bundles, and delivering them to the
/// JHE simulator over loopback HTTP at batch 100 (the contract's default).
///
/// The upload figure measures the gateway and the simulator on one machine, not a real JHE,
/// which spends 10–14 ms per entry server-side (about 70–100 samples/s per worker).
enum UplinkBenchmark {
    static func run() async {
        do {
            try encode()
            try await upload()
        } catch {
            print("uplink: failed: \(error)")
        }
    }

    static func samples(_ count: Int, offset: Int = 0) -> [HeartRateSample] {
        let start: Int64 = 1_795_334_400_000_000_000
        let boot = UUID()
        let sensor = BluetoothAddress("F0:1D:2E:3C:4B:5A")!
        return (0 ..< count).map { index in
            let time = start + Int64(index + offset) * 1_000_000_000
            return HeartRateSample(
                id: UUID(), sensor: sensor, patientID: nil,
                measurement: HeartRateMeasurement(bpm: UInt16(60 + index % 90), contact: .detected, rrIntervals: [800, 810]),
                captured: CaptureTime(wallClockNanoseconds: time, wallClockSynchronized: true, monotonicNanoseconds: UInt64(time / 1000), bootID: boot))
        }
    }

    static func encode() throws {
        let encoder = UploadEncoder(
            configuration: EncoderConfiguration(
                defaultPatientID: "40001", deviceID: "70001",
                options: EncodingOptions(defaultDatasheet: SensorDatasheet(manufacturer: "Polar", model: "H10"))))
        let batch = samples(100)
        var bytes = 0
        _ = try encoder.bundleBytes(encoder.encode(batch).items)
        let rounds = 500
        let elapsed = try ContinuousClock().measure {
            for _ in 0 ..< rounds {
                bytes += try encoder.bundleBytes(encoder.encode(batch).items).count
            }
        }
        let count = Double(rounds * batch.count)
        let seconds = elapsed.seconds
        print("uplink encode: \(Int(count)) samples into \(rounds) Bundles of 100 in \(DecodeBenchmark.format(seconds, 3)) s")
        print(
            "uplink encode: \(Int(count / seconds)) samples/s, \(bytes / Int(count)) bytes/sample in the Bundle, peak RSS \(DecodeBenchmark.format(EdgeGatewayBench.peakRSSMiB, 1)) MiB"
        )
    }

    static func upload() async throws {
        let simulator = JHESimulator()
        _ = try await simulator.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("uplink-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = try CurlTransport()
        let store = CredentialsFileStore(directory: directory.path)
        _ = try await Enrolment(transport: transport, store: store).enroll(invitation: await simulator.issueInvitation())
        let client = JHEClient(tokens: TokenManager(store: store, transport: transport), transport: transport)
        _ = await client.deliver(samples(100, offset: 10_000_000))
        let total = 20_000
        let all = samples(total)
        var delivered = 0
        let elapsed = await ContinuousClock().measure {
            for start in stride(from: 0, to: total, by: 1000) {
                delivered += await client.deliver(Array(all[start ..< start + 1000])).filter { $0 == .delivered }.count
            }
        }
        let seconds = elapsed.seconds
        print("uplink upload: \(delivered)/\(total) samples delivered to the simulator at batch 100 in \(DecodeBenchmark.format(seconds, 2)) s")
        print(
            "uplink upload: \(Int(Double(delivered) / seconds)) samples/s (\(Int(Double(total / 100) / seconds)) requests/s), peak RSS \(DecodeBenchmark.format(EdgeGatewayBench.peakRSSMiB, 1)) MiB"
        )
        await simulator.stop()
    }
}
