/// One request to the box's own HTTP servers (`/metrics`, the console), read from bytes that are
/// hostile until checked: a head of at most 8 KiB, a body only with `Content-Length` and within
/// the server's cap, no chunked uploads.
struct HTTPRequest: Sendable, Equatable {
    static let maximumHeadBytes = 8192

    /// `GET`, `POST` …
    let method: String
    /// The path, without the query.
    let path: String
    /// What followed `?`, or "".
    let query: String
    /// The header fields by lowercased name (a repeated field: the last one).
    let headers: [String: String]
    /// The body (`Content-Length` bytes).
    let body: [UInt8]
    /// The client's address, as the connection gave it.
    var peer = ""

    /// The field `name` (any case), if sent.
    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// What the bytes received so far make.
    enum Parse: Sendable {
        /// The head or the body is still arriving.
        case incomplete
        case request(HTTPRequest)
        /// Bad or too large: the reply to send before closing.
        case refused(HTTPReply)
    }

    /// Reads `bytes`, accepting a body of at most `maximumBody` bytes.
    static func parse(_ bytes: [UInt8], maximumBody: Int) -> Parse {
        guard let blank = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else {
            guard bytes.count < maximumHeadBytes else {
                return .refused(.text(400, "Bad Request", "the request was not an HTTP/1.1 request head of at most 8 KiB\n"))
            }
            return .incomplete
        }
        let lines = String(decoding: bytes[..<blank.lowerBound], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = (lines.first ?? "").split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else {
            return .refused(.text(400, "Bad Request", "the request line is not METHOD PATH HTTP/1.x\n"))
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else {
                return .refused(.text(400, "Bad Request", "a header line has no colon\n"))
            }
            headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
        }
        if headers["transfer-encoding"] != nil {
            return .refused(.text(411, "Length Required", "send the body with Content-Length, not chunked\n"))
        }
        var length = 0
        if let text = headers["content-length"] {
            guard let value = Int(text), value >= 0, text.allSatisfy(\.isASCII) else {
                return .refused(.text(400, "Bad Request", "Content-Length is not a number\n"))
            }
            guard value <= maximumBody else {
                return .refused(.text(413, "Content Too Large", "the body is larger than the \(maximumBody) bytes this server takes\n"))
            }
            length = value
        }
        let bodyStart = blank.upperBound
        guard bytes.count - bodyStart >= length else { return .incomplete }
        let target = parts[1]
        let question = target.firstIndex(of: "?")
        return .request(
            HTTPRequest(
                method: String(parts[0]), path: String(target[..<(question ?? target.endIndex)]),
                query: question.map { String(target[target.index(after: $0)...]) } ?? "", headers: headers,
                body: Array(bytes[bodyStart ..< bodyStart + length])))
    }
}
