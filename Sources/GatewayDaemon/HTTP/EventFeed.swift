/// A reply of server-sent events pushed by whoever has them, on the thread that has them: the
/// connection sends each event as it is handed over, so a producer already awake (the D-Bus
/// thread with a fresh sample) costs no thread a wake of its own.
struct EventFeed: Sendable {
    /// Starts the feed once the reply's head is sent; returns what stops it, called once when
    /// the client goes, the reply ends or the server stops. `start` runs on the connection's
    /// queue and must not send before it returns (a send waits for that queue).
    let start: @Sendable (EventSink) -> @Sendable () -> Void

    /// The same events while `allowed` holds, checked before each: the feed ends (and its
    /// reply with it) at the first event it refuses.
    func whileAllowed(_ allowed: @escaping @Sendable () -> Bool) -> EventFeed {
        EventFeed { [start] sink in
            start(
                EventSink(
                    send: { event in
                        guard allowed() else {
                            sink.finish()
                            return false
                        }
                        return sink.send(event)
                    }, finish: sink.finish))
        }
    }
}

/// Where a feed hands its events: the connection of one client.
struct EventSink: Sendable {
    /// Sends one event's bytes without blocking (what the socket does not take now waits,
    /// within the connection's caps); false once the connection is gone.
    let send: @Sendable ([UInt8]) -> Bool
    /// Ends the reply after what was sent.
    let finish: @Sendable () -> Void
}
