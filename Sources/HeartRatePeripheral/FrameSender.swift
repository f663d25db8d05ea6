/// Sends the script's frames while a client has the measurement notifications on, one every
/// `interval`, continuing where it stopped when the client subscribes again (as a strap's
/// stream continues across reconnects); with `loops`, starts over after the last frame.
actor FrameSender {
    private let script: FrameScript
    private let interval: Duration
    private let loops: Bool
    private let send: @Sendable ([UInt8]) async -> Void
    private var next: Int
    private var sending: Task<Void, Never>?

    init(script: FrameScript, startIndex: Int, interval: Duration, loops: Bool, send: @escaping @Sendable ([UInt8]) async -> Void) {
        self.script = script
        self.next = startIndex
        self.interval = interval
        self.loops = loops
        self.send = send
    }

    /// Starts or stops sending as the client's subscription comes and goes.
    func setNotifying(_ on: Bool) {
        sending?.cancel()
        sending = on ? Task { await sendFrames() } : nil
    }

    private func sendFrames() async {
        while !Task.isCancelled {
            // The first frame waits an interval too: the client's StartNotify returns after ours.
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { return }
            if next >= script.frames.count {
                guard loops else { return }
                next = 0
            }
            let frame = script.frames[next]
            await send(frame)
            PeripheralLog.sent(index: next, frame: frame)
            next += 1
        }
    }
}
