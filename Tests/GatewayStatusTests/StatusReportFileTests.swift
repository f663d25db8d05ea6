import Foundation
@testable import GatewayStatus
import GatewayTestSupport
import Testing

/// `status.json` is written by hand but must stay what `JSONEncoder` wrote, so `status`,
/// `doctor` and anything an operator scripted read it as before.
@Suite("Status report file")
struct StatusReportFileTests {
    static let reference: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let texts = ["", "ward 3 \"east\"", "a/b\\c", "bed\n2\t\u{1}", "été – ♥ 😀", "\u{202E}gnp.exe", "hci0 is powered off"]

    static func date(_ random: inout SplitMix64) -> Date {
        Date(timeIntervalSince1970: Double.random(in: -1e9 ... 4e9, using: &random))
    }

    static func report(_ random: inout SplitMix64) -> GatewayStatusReport {
        func text() -> String { texts.randomElement(using: &random)! }
        func count() -> Int { Int.random(in: 0 ... Int(Int32.max), using: &random) }
        func when() -> Date { date(&random) }
        func maybe() -> Bool { Bool.random(using: &random) }
        let sensors = (0 ..< Int.random(in: 0 ... 3, using: &random)).map { _ in
            var sensor = GatewayStatusReport.SensorStatus(
                address: text(), adapter: maybe() ? text() : nil, alias: maybe() ? text() : nil, patientID: maybe() ? text() : nil, state: text(),
                stateDetail: text(), lastSampleAt: maybe() ? when() : nil, bpm: maybe() ? count() % 300 : nil,
                batteryPercent: maybe() ? count() % 101 : nil, samplesReceived: count(), samplesAccepted: count(),
                samplesDelivered: count(), samplesDuplicate: count(), samplesRejected: count(), malformedFrames: count(),
                reconnects: count())
            sensor.skinContact = maybe() ? ["detected", "not-detected", "not-supported"].randomElement(using: &random) : nil
            sensor.rrIntervalsMs = maybe() ? (0 ..< count() % 4).map { _ in Double(count() % 4096) * 1000 / 1024 } : nil
            sensor.rssi = maybe() ? -(count() % 128) : nil
            return sensor
        }
        let adapters = (0 ..< Int.random(in: 0 ... 2, using: &random)).map { _ in
            GatewayStatusReport.AdapterStatus(
                name: text(), address: maybe() ? text() : nil, powered: maybe(), slots: count(), straps: maybe() ? [] : [text(), text()],
                connects: count(), failures: count(), slotRefusals: count())
        }
        let uplink = GatewayStatusReport.UplinkStatus(
            server: maybe() ? text() : nil, lastSuccessAt: maybe() ? when() : nil,
            lastErrorAt: maybe() ? when() : nil, lastError: maybe() ? text() : nil,
            currentError: maybe() ? text() : nil, failingSince: maybe() ? when() : nil,
            tokenExpiresAt: maybe() ? when() : nil, tokenRefreshes: count(),
            reenrolmentRequired: maybe() ? text() : nil)
        return GatewayStatusReport(
            gatewayName: text(), pid: Int32.random(in: 1 ... .max, using: &random), startedAt: when(),
            writtenAt: when(), refreshSeconds: [5, 60, 0.5, 3600].randomElement(using: &random)!,
            clockSynchronized: Bool.random(using: &random), samplesAwaitingClock: count(), sensors: sensors,
            adapters: adapters, uplink: uplink)
    }

    @Test("random reports, with every optional present or absent and dates before 1970 and with fractions, are written byte for byte as JSONEncoder wrote them")
    func bytesMatchJSONEncoder() throws {
        var random = SplitMix64(seed: 0x5EED_0018)
        for _ in 0 ..< 500 {
            let report = Self.report(&random)
            #expect(report.jsonBytes == Array(try Self.reference.encode(report)))
        }
    }

    @Test("a written report reads back equal, to the second")
    func writtenReportReadsBack() throws {
        let directory = try TemporaryDirectory("status-report-file")
        defer { directory.remove() }
        var random = SplitMix64(seed: 0x5EED_0019)
        let report = Self.report(&random)
        try StatusReportFile.write(report, directory: directory.path)
        #expect(try StatusReportFile.read(directory: directory.path)?.jsonBytes == report.jsonBytes)
    }
}
