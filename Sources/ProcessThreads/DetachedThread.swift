import CLinux
import Glibc

/// A POSIX thread that runs one closure and is never joined. The gateway keeps its blocking
/// work (the D-Bus loop, libcurl's transfers) on threads of its own so it
/// never blocks Swift's cooperative pool, and each such thread sleeps in the kernel until its
/// descriptors have work: no timer, no polling.
package enum DetachedThread {
    /// Starts `body` on a new thread named `name` (shown by `top -H` and `ps -L`; Linux keeps
    /// the first 15 bytes). Failing to start a thread means the process is out of resources,
    /// which nothing here can repair, so it stops the process with the reason.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
                _ = clinux_name_thread(body.name)
                body.run()
                return nil
            }, context)
        precondition(status == 0, "cannot start the \(name) thread (error \(status))")
        pthread_detach(thread)
    }

    private final class Body {
        let name: String
        let run: @Sendable () -> Void

        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
