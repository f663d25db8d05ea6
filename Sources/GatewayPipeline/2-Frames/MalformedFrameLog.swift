import GATTHeartRate

/// Reports frames that failed to decode with their hex, at most once per `interval` per strap,
/// saying how many were suppressed in between: a strap sending garbage at 50 Hz must not
/// flood the journal, and one bad frame a day must still be seen.
package actor MalformedFrameLog {
    private let interval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let write: @Sendable (String) -> Void
    private var lastReport: [BluetoothAddress: ContinuousClock.Instant] = [:]
    private var suppressed: [BluetoothAddress: Int] = [:]

    /// A log that hands each line it decides to write to `write`.
    package init(
        interval: Duration = .seconds(60), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        write: @escaping @Sendable (String) -> Void
    ) {
        self.interval = interval
        self.now = now
        self.write = write
    }

    /// Notes one malformed frame; writes a line unless this strap was reported recently.
    package func record(_ address: BluetoothAddress, bytes: [UInt8], error: FrameDecodingError, total: Int) {
        let now = now()
        if let last = lastReport[address], last.duration(to: now) < interval {
            suppressed[address, default: 0] += 1
            return
        }
        let hex = bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
        let skipped = suppressed.removeValue(forKey: address) ?? 0
        let note = skipped > 0 ? " (\(skipped) more since the last report)" : ""
        write("\(address): malformed frame \(hex.isEmpty ? "(empty)" : hex): \(error) [\(error.code)]; \(total) so far\(note)")
        lastReport[address] = now
    }
}
