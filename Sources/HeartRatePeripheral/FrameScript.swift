/// The notifications the peripheral sends, in order: one 0x2A37 value per line of a script
/// file, as hex bytes (`10 4e d2 02 c8 02`); `#` starts a comment. The test compares what the
/// gateway prints with the same file, so the script is the single source of the expected data.
struct FrameScript: Sendable {
    /// The frames, in sending order.
    let frames: [[UInt8]]

    /// Parses the script text; the first hex byte of each line is the frame's flags.
    init(text: String) throws(FrameScriptError) {
        var frames: [[UInt8]] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let tokens = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard !tokens.isEmpty else { continue }
            var frame: [UInt8] = []
            for token in tokens {
                guard token.count == 2, let byte = UInt8(token, radix: 16) else {
                    throw FrameScriptError(line: index + 1, reason: "\"\(token)\" is not a hex byte")
                }
                frame.append(byte)
            }
            frames.append(frame)
        }
        guard !frames.isEmpty else { throw FrameScriptError(line: 0, reason: "the script holds no frame") }
        self.frames = frames
    }
}

/// Why a script cannot be used, with the line at fault.
struct FrameScriptError: Error, CustomStringConvertible {
    let line: Int
    let reason: String
    var description: String { "frame script line \(line): \(reason)" }
}
