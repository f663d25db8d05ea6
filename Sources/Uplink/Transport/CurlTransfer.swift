import CCurl
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One request as a libcurl easy handle, with the buffers its callbacks fill.
///
/// Built on the caller's thread; from `CurlEngine.submit` on, only the engine's thread touches
/// it (the callbacks run inside `curl_multi_perform` there), except `cancel`, which only sets a
/// flag and posts to the engine. That hand-over is why it is `@unchecked Sendable`.
final class CurlTransfer: @unchecked Sendable {
    /// How a transfer ended, as libcurl reports it; `CurlTransport` turns it into words.
    enum Outcome {
        /// A whole reply arrived (any HTTP status).
        case replied(TransportResponse)
        /// libcurl gave up: its code, its own description, the socket's errno.
        case failed(CURLcode, detail: String, systemError: Int)
        /// The reply body passed the size limit.
        case tooLarge
        /// The caller's task was cancelled.
        case cancelled
    }

    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// The request body, handed to libcurl by `sendBody` as it writes the request (no copy of
    /// it is made: an upload Bundle is about 100 kB), from `requestOffset` on.
    private let requestBody: [UInt8]
    private var requestOffset = 0
    private var body: [UInt8] = []
    private var headers: [(String, String)] = []
    private var exceededLimit = false
    private let maximumBodyBytes: Int
    private var continuation: CheckedContinuation<Outcome, Never>?
    private let cancelRequested = Atomic<Bool>(false)

    /// An easy handle for `request`: `settings` says how to reach the server, `timeout` bounds
    /// the whole exchange (connect, TLS, request, reply head and body), and at most
    /// `maximumBodyBytes` of reply are kept. Nil if libcurl cannot make a handle (out of memory).
    init?(_ request: TransportRequest, settings: CurlSettings, timeout: Duration, maximumBodyBytes: Int) {
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
        self.maximumBodyBytes = maximumBodyBytes
        requestBody = request.body ?? []
        errorText.initialize(to: 0)
        let context = Unmanaged.passUnretained(self).toOpaque()
        egw_curl_set_pointer(handle, CURLOPT_PRIVATE, context)
        egw_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorText)
        egw_curl_set_callback(handle, CURLOPT_WRITEFUNCTION, Self.receiveBody)
        egw_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
        egw_curl_set_callback(handle, CURLOPT_HEADERFUNCTION, Self.receiveHeader)
        egw_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
        settings.apply(to: handle, url: request.url, timeout: timeout)
        setMethod(request)
        // An empty `Expect:` stops libcurl from waiting for "100 Continue" before a large body.
        for line in request.headers.map({ "\($0.0): \($0.1)" }) + ["Expect:"] {
            headerList = curl_slist_append(headerList, line)
        }
        egw_curl_set_pointer(handle, CURLOPT_HTTPHEADER, headerList)
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorText.deallocate()
    }

    /// libcurl's minimum for `CURLOPT_UPLOAD_BUFFERSIZE`.
    private static let uploadBufferBytes = 16 * 1024

    private func setMethod(_ request: TransportRequest) {
        if request.body != nil || request.method != "GET" {
            // The size first, or libcurl would send the body chunked; the seek callback lets it
            // send the body again when it retries a kept-alive connection the server had closed.
            let context = Unmanaged.passUnretained(self).toOpaque()
            egw_curl_set_long(handle, CURLOPT_POST, 1)
            egw_curl_set_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(requestBody.count))
            egw_curl_set_callback(handle, CURLOPT_READFUNCTION, Self.sendBody)
            egw_curl_set_pointer(handle, CURLOPT_READDATA, context)
            egw_curl_set_seek_callback(handle, CURLOPT_SEEKFUNCTION, Self.rewindBody)
            egw_curl_set_pointer(handle, CURLOPT_SEEKDATA, context)
            // libcurl's smallest upload buffer rather than its 64 kB default: the socket's own
            // buffer keeps the link busy either way, and the 48 kB saved were written on every
            // upload round into heap pages that then stayed dirty (docs/PERFORMANCE.md).
            egw_curl_set_long(handle, CURLOPT_UPLOAD_BUFFERSIZE, Self.uploadBufferBytes)
        }
        if request.method != "GET" && request.method != "POST" {
            egw_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
        }
    }

    /// Called once, before `CurlEngine.submit`, with the continuation the outcome resumes.
    func awaitOutcome(_ continuation: CheckedContinuation<Outcome, Never>) {
        self.continuation = continuation
    }

    /// Asks for the transfer to end as `.cancelled`; any thread. The engine finishes it.
    func cancel() {
        cancelRequested.store(true, ordering: .sequentiallyConsistent)
        CurlEngine.shared.cancel(self)
    }

    /// Whether `cancel` has been called.
    var isCancelled: Bool { cancelRequested.load(ordering: .sequentiallyConsistent) }

    /// Ends the transfer with libcurl's `result` (engine thread; the handle is out of the multi).
    func finish(_ result: CURLcode) {
        if exceededLimit {
            finish(.tooLarge)
        } else if result == CURLE_OK {
            let status = egw_curl_info_long(handle, CURLINFO_RESPONSE_CODE)
            finish(.replied(TransportResponse(status: status, headers: headers, body: Data(body))))
        } else {
            let detail = errorText.pointee == 0 ? String(cString: curl_easy_strerror(result)) : String(cString: errorText)
            finish(.failed(result, detail: detail, systemError: egw_curl_info_long(handle, CURLINFO_OS_ERRNO)))
        }
    }

    /// Resumes the caller with `outcome`; later calls do nothing (engine thread).
    func finish(_ outcome: Outcome) {
        continuation?.resume(returning: outcome)
        continuation = nil
    }

    /// Copies the next part of the request body into libcurl's buffer; 0 at the end.
    private static let sendBody: egw_curl_data_callback = { buffer, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = min(size * count, transfer.requestBody.count - transfer.requestOffset)
        guard length > 0 else { return 0 }
        transfer.requestBody.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer!).copyMemory(from: bytes.baseAddress! + transfer.requestOffset, byteCount: length)
        }
        transfer.requestOffset += length
        return length
    }

    /// Moves to `offset` of the request body (libcurl only asks for `SEEK_SET`).
    private static let rewindBody: curl_seek_callback = { context, offset, origin in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        guard origin == SEEK_SET, offset >= 0, offset <= transfer.requestBody.count else { return CURL_SEEKFUNC_FAIL }
        transfer.requestOffset = Int(offset)
        return CURL_SEEKFUNC_OK
    }

    private static let receiveBody: egw_curl_data_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        guard transfer.body.count + length <= transfer.maximumBodyBytes else {
            transfer.exceededLimit = true
            return 0
        }
        transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        return length
    }

    /// One header line at a time, status lines included: each status line starts a new set
    /// (a `100 Continue`, or a proxy's reply to CONNECT, comes before the server's own).
    private static let receiveHeader: egw_curl_data_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            transfer.headers = []
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmed
            let value = line[line.index(after: colon)...].trimmed
            transfer.headers.append((name, value))
        }
        return length
    }
}

private extension Substring {
    /// Without leading and trailing spaces, tabs and ASCII line ends, found byte by byte (every
    /// header of every reply passes here).
    var trimmed: String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || (0x09 ... 0x0D).contains($0) }
        guard let first = utf8.firstIndex(where: { !blank($0) }), let last = utf8.lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first ... last])
    }
}
