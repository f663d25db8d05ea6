import Glibc

/// The values a gathered wake read from several notification sockets, handed on in the order
/// they arrived. Each socket is drained in turn, so without this a strap whose socket is read
/// first would have its later values handed on before another strap's earlier ones, and the
/// samples would reach the queue (and the server) out of capture order.
///
/// One per bus connection: every notification socket on it is read on the connection's
/// thread, and only that thread touches this.
final class NotificationArrivals: @unchecked Sendable {
    private struct Arrival {
        let arrived: Int64
        let value: [UInt8]
        let deliver: GattCharacteristic.NotificationHandler
    }

    /// An arrival stamp older than this (or in the future) means the wall clock was stepped
    /// between the packet's arrival and its read: the read time stands instead.
    static let oldestArrival: UInt64 = 1_000_000_000

    private var waiting: [Arrival] = []

    /// Keeps `value`, stamped `arrived` (nanoseconds since 1970; 0 for none), for `settle`.
    func add(_ value: [UInt8], arrived: Int64, to deliver: @escaping GattCharacteristic.NotificationHandler) {
        waiting.append(Arrival(arrived: arrived, value: value, deliver: deliver))
    }

    /// Hands on every value kept, oldest arrival first (values of one socket keep their order),
    /// each with how long ago it arrived.
    func settle() {
        guard !waiting.isEmpty else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        let arrivals = waiting.count > 1 ? Self.inArrivalOrder(waiting) : waiting
        waiting.removeAll(keepingCapacity: true)
        for arrival in arrivals {
            arrival.deliver(arrival.value, Self.age(of: arrival.arrived, now: nanoseconds))
        }
    }

    /// A stable sort by arrival: each socket's values are in order already.
    private static func inArrivalOrder(_ arrivals: [Arrival]) -> [Arrival] {
        arrivals.enumerated().sorted { ($0.element.arrived, $0.offset) < ($1.element.arrived, $1.offset) }.map(\.element)
    }

    /// How long before `now` a packet stamped `arrived` came: 0 without a stamp or with one the
    /// clock contradicts.
    static func age(of arrived: Int64, now: Int64) -> UInt64 {
        guard arrived > 0, now > arrived, UInt64(now - arrived) <= oldestArrival else { return 0 }
        return UInt64(now - arrived)
    }
}
