import GATTHeartRate
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OutputFormats

/// The samples of one strap and patient that fall into one epoch-aligned window, and the
/// statistics the windowed mode sends for them.
struct HeartRateWindow {
    let sensor: BluetoothAddress
    let patientID: String?
    let startNanoseconds: Int64
    let endNanoseconds: Int64
    private(set) var samples: [HeartRateSample]

    var sampleIDs: [UUID] { samples.map(\.id) }

    var lastCaptureNanoseconds: Int64 { samples.map(\.captured.wallClockNanoseconds).max() ?? endNanoseconds }

    /// The sorted member ids: the same samples always name the same derived data points.
    var memberKey: String { samples.map(\.id.lowercasedText).sorted().joined(separator: ",") }

    /// `average`, `minimum`, `maximum`, in that order; the average rounded to 0.01 bpm.
    var statistics: [(String, Double)] {
        let rates = samples.map { Double($0.measurement.bpm) }
        let average = (rates.reduce(0, +) / Double(rates.count) * 100).rounded() / 100
        return [("average", average), ("minimum", rates.min() ?? 0), ("maximum", rates.max() ?? 0)]
    }

    /// Groups samples by strap, patient and window, in order of each window's first sample.
    static func group(_ samples: [HeartRateSample], seconds: Int) -> [HeartRateWindow] {
        let length = Int64(seconds) * 1_000_000_000
        var windows: [HeartRateWindow] = []
        var index: [String: Int] = [:]
        for sample in samples {
            let time = sample.captured.wallClockNanoseconds
            let start = (time >= 0 ? time / length : (time - length + 1) / length) * length
            let key = "\(sample.sensor)|\(sample.patientID ?? "")|\(start)"
            if let position = index[key] {
                windows[position].samples.append(sample)
            } else {
                index[key] = windows.count
                windows.append(
                    HeartRateWindow(
                        sensor: sample.sensor, patientID: sample.patientID, startNanoseconds: start,
                        endNanoseconds: start + length, samples: [sample]))
            }
        }
        return windows
    }
}
