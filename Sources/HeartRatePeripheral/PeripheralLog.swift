import Glibc

/// What the peripheral says: one JSON object per line on standard output, written unbuffered so
/// the test can follow it from another process: `{"event":"sent","index":0,"frame":"104e…"}`.
enum PeripheralLog {
    static func event(_ name: String, _ detail: String = "") {
        let text = "{\"event\":\"\(name)\"" + (detail.isEmpty ? "" : ",\(detail)") + "}\n"
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    static func sent(index: Int, frame: [UInt8]) {
        let hex = frame.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        event("sent", "\"index\":\(index),\"frame\":\"\(hex)\"")
    }
}
