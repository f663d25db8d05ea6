import CCurl
import Glibc
import ProcessThreads
import Synchronization

/// The process's one HTTP event loop: a libcurl multi handle driven by one thread, shared by
/// every `CurlTransport` (so connections to JHE are kept alive and reused across them).
///
/// The thread sleeps in `curl_multi_poll` until a socket is ready, one of libcurl's own timers
/// (a transfer's deadline) falls due, or `curl_multi_wakeup` hands it work: with nothing in
/// flight it does not wake at all.
final class CurlEngine: Sendable {
    /// The engine; its thread starts with the first request.
    static let shared = CurlEngine()

    private struct Inbox {
        var added: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
    }

    private let inbox = Mutex(Inbox())
    /// The multi handle: the engine's thread is its only user, apart from `curl_multi_wakeup`,
    /// which libcurl allows from any thread.
    private nonisolated(unsafe) let multi: UnsafeMutableRawPointer

    private init() {
        // A peer that closes its end must not kill the process: libcurl sends with MSG_NOSIGNAL
        // but says some corner cases (OpenSSL among them) can still raise SIGPIPE. The write
        // then fails with EPIPE and the transfer ends as a connection failure.
        signal(SIGPIPE, SIG_IGN)
        let status = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        precondition(status == CURLE_OK, "libcurl could not initialise (\(status.rawValue)); the process is out of memory or its TLS library is broken")
        guard let multi = curl_multi_init() else { preconditionFailure("libcurl could not make its multi handle (out of memory)") }
        self.multi = multi
        DetachedThread.start(name: "egw-http") { [self] in run() }
    }

    /// Starts `transfer`; its outcome resumes the continuation it holds.
    func submit(_ transfer: CurlTransfer) {
        inbox.withLock { $0.added.append(transfer) }
        curl_multi_wakeup(multi)
    }

    /// Ends `transfer` as cancelled, unless it has finished already.
    func cancel(_ transfer: CurlTransfer) {
        inbox.withLock { $0.cancelled.append(transfer) }
        curl_multi_wakeup(multi)
    }

    private func run() {
        var running: [ObjectIdentifier: CurlTransfer] = [:]
        while true {
            let work = inbox.withLock { inbox in
                defer { inbox = Inbox() }
                return inbox
            }
            for transfer in work.added {
                if transfer.isCancelled {
                    transfer.finish(.cancelled)
                } else if curl_multi_add_handle(multi, transfer.handle) == CURLM_OK {
                    running[ObjectIdentifier(transfer)] = transfer
                } else {
                    transfer.finish(CURLE_OUT_OF_MEMORY)
                }
            }
            for transfer in work.cancelled {
                guard running.removeValue(forKey: ObjectIdentifier(transfer)) != nil else { continue }
                curl_multi_remove_handle(multi, transfer.handle)
                transfer.finish(.cancelled)
            }
            var active: Int32 = 0
            curl_multi_perform(multi, &active)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let context = egw_curl_private(easy)
                else { continue }
                let result = message.pointee.data.result
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                curl_multi_remove_handle(multi, easy)
                running.removeValue(forKey: ObjectIdentifier(transfer))
                transfer.finish(result)
            }
            // libcurl shortens the wait to its next timer; with nothing in flight it has none,
            // and only `curl_multi_wakeup` ends the wait.
            curl_multi_poll(multi, nil, 0, Int32.max, nil)
        }
    }
}
