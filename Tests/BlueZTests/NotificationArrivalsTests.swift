@testable import BlueZ
import Glibc
import Synchronization
import Testing

@Suite("Notification values read in one wake, handed on in arrival order")
struct NotificationArrivalsTests {
    /// The wall clock now, in nanoseconds since 1970.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    @Test("two sockets drained in turn: their values are handed on by arrival, each socket's in its order, with their ages")
    func interleavesByArrival() {
        let arrivals = NotificationArrivals()
        let handed = Mutex<[(value: UInt8, age: UInt64)]>([])
        let deliver: GattCharacteristic.NotificationHandler = { value, age in handed.withLock { $0.append((value[0], age)) } }
        let start = Self.now() - 200_000_000
        // Socket A is read first: its values came at 0, 50 and 100 ms; socket B's at 25 and 75 ms,
        // and a value of B's arrived at the same nanosecond as one of A's.
        for (value, offset) in [(1, 0), (3, 50), (5, 100)] as [(UInt8, Int64)] {
            arrivals.add([value], arrived: start + offset * 1_000_000, to: deliver)
        }
        for (value, offset) in [(2, 25), (4, 75), (6, 100)] as [(UInt8, Int64)] {
            arrivals.add([value], arrived: start + offset * 1_000_000, to: deliver)
        }
        arrivals.settle()
        let values = handed.withLock { $0 }
        #expect(values.map(\.value) == [1, 2, 3, 4, 5, 6])
        #expect(zip(values, values.dropFirst()).allSatisfy { $0.age >= $1.age })
        #expect(values[0].age >= 200_000_000 && values[0].age < 1_000_000_000)
        arrivals.settle()
        #expect(handed.withLock { $0.count } == 6, "a settle hands each value on once")
    }

    @Test("a value without a stamp, or with one the clock contradicts, is dated by its read")
    func untrustedStampsCountAsNow() {
        let now = Self.now()
        #expect(NotificationArrivals.age(of: 0, now: now) == 0)
        #expect(NotificationArrivals.age(of: now + 5_000_000, now: now) == 0, "a stamp ahead of the clock")
        #expect(NotificationArrivals.age(of: now - 2_000_000_000, now: now) == 0, "a stamp older than a second")
        #expect(NotificationArrivals.age(of: now - 300_000_000, now: now) == 300_000_000)
    }
}
