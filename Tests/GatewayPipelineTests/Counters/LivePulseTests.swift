@testable import GatewayPipeline
import Synchronization
import Testing

/// The pulse an open console page listens to: heard at most once per interval, by every
/// listener, only while someone listens.
@Suite("Counters: the live pulse")
struct LivePulseTests {
    @Test("a beat is heard by every listener, then not again within the interval")
    func heardOncePerInterval() {
        let pulse = LivePulse(interval: .seconds(3600))
        let heard = Mutex([0, 0])
        let stops = (0 ..< 2).map { index in pulse.listen { heard.withLock { $0[index] += 1 } } }
        pulse.beat()
        pulse.beat()
        #expect(heard.withLock { $0 } == [1, 1])
        stops.forEach { $0() }
    }

    @Test("with a zero interval every beat is heard; a stopped listener hears none, and stopping twice is harmless")
    func stoppedListenerHearsNothing() {
        let pulse = LivePulse(interval: .zero)
        let heard = Mutex(0)
        let stop = pulse.listen { heard.withLock { $0 += 1 } }
        pulse.beat()
        pulse.beat()
        #expect(heard.withLock { $0 } == 2)
        stop()
        stop()
        pulse.beat()
        #expect(heard.withLock { $0 } == 2)
    }

    @Test("beats with nobody listening are not kept: a listener that comes later hears the next beat at once")
    func beatsWithoutListenersAreNotKept() {
        let pulse = LivePulse(interval: .seconds(3600))
        pulse.beat()
        let heard = Mutex(0)
        let stop = pulse.listen { heard.withLock { $0 += 1 } }
        defer { stop() }
        #expect(heard.withLock { $0 } == 0)
        pulse.beat()
        #expect(heard.withLock { $0 } == 1)
    }
}
