#!/usr/bin/env python3
"""Checks what the test-bluez guest recorded (OUT_DIR) against the frame script (FRAMES).

Each step left NAME.rc/.out/.err/.seconds in OUT_DIR. The frames are decoded here, by a decoder
independent of the gateway's, so a decoding bug cannot agree with itself. Prints one line per
check and a summary with the step durations and the retries; exits 1 on any failure.
"""
import json
import sys
from pathlib import Path

STEPS = ["stack", "peripheral", "scan", "pair", "live", "daemon", "adapters"]


def decode(frame):
    """(bpm, contact, rr raw values) of one 0x2A37 value, per HRS 1.0."""
    flags, rest = frame[0], frame[1:]
    if flags & 0x01:
        bpm, rest = rest[0] | rest[1] << 8, rest[2:]
    else:
        bpm, rest = rest[0], rest[1:]
    if flags & 0x08:
        rest = rest[2:]
    rr = [rest[i] | rest[i + 1] << 8 for i in range(0, len(rest) - 1, 2)] if flags & 0x10 else []
    contact = {2: "not-detected", 3: "detected"}.get(flags >> 1 & 3, "not-supported")
    return bpm, contact, rr


def frames(path):
    for line in Path(path).read_text().splitlines():
        hex_part = line.split("#", 1)[0].split()
        if hex_part:
            yield bytes(int(token, 16) for token in hex_part)


def json_lines(path):
    lines = []
    for text in path.read_text().splitlines() if path.exists() else []:
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError:
            pass
    return lines


def check_adapters(lines, check):
    """The adapters step: three straps placed 2 + 1 on two adapters of two slots; the adapter
    holding two powered off, one of its straps takes the other adapter's free slot and the third
    waits for a slot and says so; powered on again, 2 + 1 again; every accepted sample answered
    by the server once."""
    roles = next((line["roles"] for line in lines if "roles" in line), {})
    phases = {line.get("phase"): line for line in lines if "phase" in line}
    full, partial = roles.get("full_adapter"), roles.get("partial_adapter")

    def placement(phase):
        adapters = phases.get(phase, {}).get("adapters", {})
        return sorted(len(adapter.get("straps", [])) for adapter in adapters.values() if adapter.get("straps"))

    def sensors(phase):
        return phases.get(phase, {}).get("sensors", {})

    placed = sensors("placed")
    check(len(placed) == 3 and all(s.get("state") == "subscribed" for s in placed.values()) and placement("placed") == [1, 2]
          and {s.get("adapter") for s in placed.values()} == {full, partial},
          f"three straps are placed 2 + 1 on two adapters of two slots: {phases.get('placed')}")
    spilled = sensors("spilled")
    moved = [s for s in spilled.values() if s.get("state") == "subscribed" and s.get("adapter") == partial]
    waiting = [s for s in spilled.values() if s.get("stateDetail") == f"waiting: no free connection slot on {partial}"]
    check(len(moved) == 2 and len(waiting) == 1,
          f"{full} powered off, one of its straps takes {partial}'s free slot and the other waits for a slot and says so: {spilled}")
    again = sensors("placed-again")
    check(len(again) == 3 and all(s.get("state") == "subscribed" for s in again.values()) and placement("placed-again") == [1, 2],
          f"{full} powered on again, all three stream, 2 + 1: {phases.get('placed-again')}")
    drained = sensors("drained")
    exact = [address for address, s in drained.items()
             if s["samplesAccepted"] > 0 and s["samplesDelivered"] == s["samplesAccepted"]
             and s["samplesDuplicate"] == 0 and s["samplesRejected"] == 0]
    check(len(drained) == 3 and len(exact) == 3,
          f"every sample each strap's gateway accepted was stored once by the server (delivered = accepted, none duplicate): {drained}")


def main(out_dir, frames_path):
    out = Path(out_dir)
    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)

    check((out / "finished").exists(), "the guest ran to its end (no hang, no crash)")
    for step in STEPS:
        rc = (out / f"{step}.rc").read_text().strip() if (out / f"{step}.rc").exists() else "not run"
        check(rc == "0", f"step {step} exits 0 (got {rc})")

    address = (out / "peripheral-address").read_text().strip() if (out / "peripheral-address").exists() else None
    scanned = json_lines(out / "scan.out")
    check(any(line.get("address") == address for line in scanned),
          f"scan lists the peripheral {address} ({len(scanned)} lines)")

    paired = [line for line in json_lines(out / "pair.out") if line.get("address") == address]
    check(bool(paired) and paired[-1].get("bound") is True, "pair binds the peripheral")
    if paired:
        check(paired[-1].get("bonded") is True, f"pair bonds through bluetoothd (Just Works): {paired[-1]}")
        check(paired[-1].get("body_location") == "chest", "pair reads Body Sensor Location 0x2A38 (chest)")

    # The gateway's side of pairing must not lean on the strap's agent, which is bluetoothd's
    # default agent here (one bluetoothd serves both controllers): pair registers its own, and
    # every question the strap's agent gets concerns the strap's side (hci1).
    pair_err = (out / "pair.err").read_text() if (out / "pair.err").exists() else ""
    check("pairing with an agent of its own (NoInputNoOutput)" in pair_err, "pair answers bluetoothd with an agent of its own")
    strap_agent = [line for line in json_lines(out / "peripheral.jsonl") if line.get("event") == "agent"]
    foreign = [line for line in strap_agent if not line.get("device", "").startswith("/org/bluez/hci1/")]
    check(not foreign, f"the strap's default agent answered only for the strap's side "
          f"({len(strap_agent)} question(s): {sorted({line.get('accepted') for line in strap_agent})}; others: {foreign})")

    expected = [decode(frame) for frame in frames(frames_path)]
    received = [line for line in json_lines(out / "live.out") if "bpm" in line]
    check(len(received) == len(expected), f"live prints {len(expected)} samples (got {len(received)})")
    mismatches = 0
    for index, (want, got) in enumerate(zip(expected, received)):
        bpm, contact, rr = want
        rr_ms = [round(raw * 1000 / 1024, 3) for raw in rr]
        got_rr = [round(value, 3) for value in got.get("rr_intervals_ms", [])]
        same = got.get("bpm") == bpm and got.get("contact") == contact and got_rr == rr_ms \
            and got.get("address") == address
        if not same:
            mismatches += 1
            check(False, f"sample {index}: expected bpm {bpm} {contact} RR {rr_ms}, got {got}")
    if received and not mismatches:
        check(True, f"the {len(received)} samples equal the script's frames, in order (bpm, contact, RR)")

    phases = json_lines(out / "daemon.out")
    restarted = [line for line in phases if "received_before_restart" in line]
    check(bool(restarted) and restarted[-1]["delivered"] >= restarted[-1]["received_before_restart"] + 10,
          f"the daemon delivers samples to jhe-simulator before and after the peripheral restarts: {restarted}")
    crashed = [line for line in phases if "received_before_bluetoothd_crash" in line]
    check(bool(crashed) and crashed[-1]["delivered"] >= crashed[-1]["received_before_bluetoothd_crash"] + 10,
          f"the daemon reconnects after bluetoothd is killed (SIGSEGV) mid-stream and restarted, "
          f"and delivers what follows: {crashed}")

    check_adapters(json_lines(out / "adapters.out"), check)

    retries = (out / "retries").read_text().splitlines() if (out / "retries").exists() else []
    seconds = {step: (out / f"{step}.seconds").read_text().strip()
               for step in STEPS if (out / f"{step}.seconds").exists()}
    print("steps (s): " + ", ".join(f"{step} {value}" for step, value in seconds.items()))
    print(f"retries: {len(retries)}" + "".join(f"\n  {line}" for line in retries))
    restarts = (out / "bluetoothd-restarts").read_text().splitlines() if (out / "bluetoothd-restarts").exists() else []
    print(f"bluetoothd restarts: {len(restarts)}" + "".join(f"\n  {line}" for line in restarts))
    print(f"{'FAILED' if failures else 'PASSED'}: {len(failures)} failed check(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: check-results.py OUT_DIR FRAMES")
    sys.exit(main(sys.argv[1], sys.argv[2]))
