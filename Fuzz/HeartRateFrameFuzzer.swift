import GATTHeartRate
import GatewayTestSupport

/// libFuzzer entry point (`make fuzz`): every input must decode or fail with a truncation or
/// range error, never trap, and a decoded Heart Rate Measurement must re-encode to its own bytes.
/// The same input is also read as a queue record (`HeartRateSample(binary:)`, the decoder of
/// what comes back from disk): it must decode or throw, and a record that decodes must be
/// exactly the bytes its sample encodes to.
@_cdecl("LLVMFuzzerTestOneInput")
public func heartRateFrameFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let frame = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let decoded = try HeartRateMeasurement.decode(frame)
        if let mismatch = FrameConsistency.mismatch(frame: frame, decoded: decoded) {
            fatalError(mismatch)
        }
    } catch {
        precondition(error.kind == .truncated && error.missingBytes > 0, "unexpected \(error)")
    }
    do {
        let location = try BodySensorLocation.decode(frame)
        precondition(BodySensorLocation(rawValue: location.value.rawValue) == location.value)
    } catch {
        precondition(frame.isEmpty && error.kind == .truncated, "unexpected \(error)")
    }
    do {
        let level = try BatteryLevel.decode(frame)
        precondition(level.value.percent <= 100 && level.value.encoded == [frame[0]])
    } catch {
        precondition(frame.isEmpty || frame[0] > 100, "unexpected \(error)")
    }
    if let sample = try? HeartRateSample(binary: frame) {
        precondition((try? sample.binaryEncoded()) == frame, "a record decoded but re-encodes to other bytes: \(frame)")
    }
    return 0
}
