import GATTHeartRate
@testable import GatewayPipeline
import GatewayTestSupport
import Testing

/// The placement's score and slot arithmetic, alone: which adapter each strap gets.
@Suite("Adapter placement")
struct AdapterPlacementTests {
    static func strap(_ index: Int) -> BluetoothAddress { BluetoothAddress("F0:1D:2E:3C:02:\(String(format: "%02X", index))")! }

    static func heard(hci0: Int?, hci1: Int?, bondedOn: String? = nil) -> [StrapSighting] {
        [StrapSighting(adapter: "hci0", rssi: hci0, bonded: bondedOn == "hci0"), StrapSighting(adapter: "hci1", rssi: hci1, bonded: bondedOn == "hci1")]
    }

    @Test("each strap goes to the adapter that hears it best with a free slot; a full adapter is never chosen")
    func bestFreeAdapter() async {
        let placement = AdapterPlacement(plan: AdapterPlan(maxConnections: 2))
        var chosen: [String?] = []
        for index in 1 ... 5 { chosen.append(await placement.place(Self.strap(index), among: Self.heard(hci0: -60, hci1: -80))) }
        #expect(chosen == ["hci0", "hci0", "hci1", "hci1", nil])
        let loads = await placement.loads(of: ["hci0", "hci1"])
        #expect(loads.map(\.slotsUsed) == [2, 2] && loads.map(\.slotsFree) == [0, 0])
    }

    @Test("a strap placed again gives up its slot first; one released frees the slot for the next")
    func placesAgainAndReleases() async {
        let placement = AdapterPlacement(plan: AdapterPlan(maxConnections: 1))
        #expect(await placement.place(Self.strap(1), among: Self.heard(hci0: -60, hci1: nil)) == "hci0")
        #expect(await placement.place(Self.strap(1), among: Self.heard(hci0: -90, hci1: -40)) == "hci1", "its own slot is not held against it")
        #expect(await placement.place(Self.strap(2), among: Self.heard(hci0: -40, hci1: nil)) == "hci0")
        #expect(await placement.place(Self.strap(4), among: Self.heard(hci0: -40, hci1: -40)) == nil, "both full")
        await placement.release(Self.strap(1))
        #expect(await placement.place(Self.strap(3), among: Self.heard(hci0: -40, hci1: nil)) == "hci1", "the freed slot, though unheard there")
    }

    @Test("a bond outweighs a few dB, not a much better signal; the last free slot counts against an adapter")
    func bondAndLastSlot() async {
        let placement = AdapterPlacement(plan: AdapterPlan(maxConnectionsByAdapter: ["hci0": 5, "hci1": 5]))
        #expect(await placement.place(Self.strap(1), among: Self.heard(hci0: -70, hci1: -60, bondedOn: "hci0")) == "hci0")
        #expect(await placement.place(Self.strap(2), among: Self.heard(hci0: -90, hci1: -60, bondedOn: "hci0")) == "hci1")
        let tight = AdapterPlacement(plan: AdapterPlan(maxConnectionsByAdapter: ["hci0": 1, "hci1": 5]))
        #expect(await tight.place(Self.strap(3), among: Self.heard(hci0: -60, hci1: -63)) == "hci1", "-60 - 5 for the last slot < -63")
    }

    @Test("connects in progress and recent failures send new straps to the other adapter")
    func penalties() async {
        let placement = AdapterPlacement(plan: AdapterPlan())
        #expect(await placement.place(Self.strap(1), among: Self.heard(hci0: -60, hci1: -65)) == "hci0")
        await placement.connectStarted(Self.strap(1))
        #expect(await placement.place(Self.strap(2), among: Self.heard(hci0: -60, hci1: -65)) == "hci1", "-60 - 10 in progress < -65")
        await placement.connectFinished(Self.strap(1), .failed)
        await placement.release(Self.strap(1))
        #expect(await placement.place(Self.strap(3), among: Self.heard(hci0: -60, hci1: -70)) == "hci1", "-60 - 15 for a failure < -70")
        let loads = await placement.loads(of: ["hci0"])
        #expect(loads[0].failures == 1 && loads[0].connects == 0)
    }

    @Test("a refusal for want of a slot makes the adapter full at what it holds, until one of its straps leaves")
    func learnsTheControllersSize() async {
        let placement = AdapterPlacement(plan: AdapterPlan(names: ["hci0"]))
        let only = [StrapSighting(adapter: "hci0", rssi: -60)]
        for index in 1 ... 3 { #expect(await placement.place(Self.strap(index), among: only) == "hci0") }
        for index in 1 ... 2 {
            await placement.connectStarted(Self.strap(index))
            await placement.connectFinished(Self.strap(index), .connected)
        }
        await placement.connectStarted(Self.strap(3))
        #expect(await placement.connectFinished(Self.strap(3), .noSlot(certain: false)), "abort-by-local on a busy adapter")
        #expect(await placement.adapter(of: Self.strap(3)) == nil, "the refused strap is released")
        #expect(await placement.place(Self.strap(3), among: only) == nil, "full at the two it holds, not at the configured five")
        let load = await placement.loads(of: ["hci0"])[0]
        #expect(load.slots == 2 && load.slotRefusals == 1 && load.connects == 2 && load.failures == 0)
        await placement.release(Self.strap(1))
        #expect(await placement.loads(of: ["hci0"])[0].slots == 5)
        #expect(await placement.place(Self.strap(3), among: only) == "hci0")
    }

    @Test("le-connection-abort-by-local with nothing else on the adapter is the strap's failure; a stated limit is not")
    func abortAlone() async {
        let placement = AdapterPlacement(plan: AdapterPlan())
        let only = [StrapSighting(adapter: "hci0", rssi: -60)]
        _ = await placement.place(Self.strap(1), among: only)
        await placement.connectStarted(Self.strap(1))
        #expect(await !placement.connectFinished(Self.strap(1), .noSlot(certain: false)))
        #expect(await placement.loads(of: ["hci0"])[0].failures == 1)
        await placement.connectStarted(Self.strap(1))
        #expect(await placement.connectFinished(Self.strap(1), .noSlot(certain: true)))
        #expect(await placement.loads(of: ["hci0"])[0].slots == 0, "a controller full of other programs' links holds none of ours")
    }

    @Test("an abort while another strap is still connecting there counts as no slot: a controller's slots hold its pending connects")
    func abortBesideAConnect() async {
        let placement = AdapterPlacement(plan: AdapterPlan())
        let only = [StrapSighting(adapter: "hci0", rssi: -60)]
        for index in 1 ... 2 {
            _ = await placement.place(Self.strap(index), among: only)
            await placement.connectStarted(Self.strap(index))
        }
        #expect(await placement.connectFinished(Self.strap(2), .noSlot(certain: false)))
        let load = await placement.loads(of: ["hci0"])[0]
        #expect(load.slots == 1 && load.failures == 0 && load.slotRefusals == 1)
    }

    @Test("a strap waiting for a slot is woken when one frees, not at its timeout")
    func wakesOnRelease() async throws {
        let placement = AdapterPlacement(plan: AdapterPlan(maxConnections: 1))
        _ = await placement.place(Self.strap(1), among: Self.heard(hci0: -60, hci1: nil))
        let start = ContinuousClock.now
        async let woken: Void = placement.slotFreed(since: await placement.releases, timeout: .seconds(600))
        try await waitUntil { await placement.waiting > 0 }
        await placement.release(Self.strap(1))
        await woken
        #expect(start.duration(to: .now) < .seconds(300))
    }

    @Test("a slot freed between a refused place and the wait ends the wait at once")
    func releaseBeforeWait() async {
        let placement = AdapterPlacement(plan: AdapterPlan(maxConnections: 1))
        let heard = Array(Self.heard(hci0: -60, hci1: nil).prefix(1))
        _ = await placement.place(Self.strap(1), among: heard)
        let seen = await placement.releases
        #expect(await placement.place(Self.strap(2), among: heard) == nil)
        await placement.release(Self.strap(1))
        let start = ContinuousClock.now
        await placement.slotFreed(since: seen, timeout: .seconds(60))
        let waiting = await placement.waiting
        #expect(start.duration(to: .now) < .seconds(30) && waiting == 0)
    }
}
