#!/usr/bin/env python3
"""The power-cut tier's verdict (scripts/test-powercut/run.sh): reads what every boot reported
over 9p and what the JHE stand-in stored, and prints, by sample id:

- lost accepted: samples the daemon had logged as accepted (durable) before a cut that were
  neither in the queue when the VM came back nor at the server. Must be 0.
- received, never accepted: notifications the straps delivered in a boot that was cut, minus the
  samples accepted in it (in memory at the cut, or not yet received; the straps' count is
  written every 200 ms, so this is within a few samples).
- stored twice: ids the server holds more than once. Must be 0.

Also every boot after the first must find the queue readable (or, while no sample was ever
accepted, not made yet: the first cut can fall before the daemon made it), the gateway enrolled and both
straps bound (credentials.json and sensors.json present and read; how many versions of each
were seen is printed). Exit status 1 on any failure.

Usage: check.py OUT LEDGER CYCLES
"""
import json
import re
import sys
from pathlib import Path

UUID = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}", re.I)


def accepted_ids(log: Path) -> set[str]:
    """Ids of the daemon's "accepted samples" lines (upload queue); a line the cut ended
    mid-way still names whole ids before the cut."""
    ids: set[str] = set()
    if not log.exists():
        return ids
    for line in log.read_text(errors="replace").splitlines():
        if "accepted samples" in line and "queue=upload" in line and "ids=" in line:
            ids.update(match.upper() for match in UUID.findall(line.split("ids=", 1)[1]))
    return ids


def exported_ids(path: Path) -> set[str]:
    ids: set[str] = set()
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                ids.add(json.loads(line)["sample_id"].upper())
    return ids


def main() -> int:
    out, ledger_path, cycles = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    ledger = json.loads(ledger_path.read_text())
    stored = [uuid.upper() for uuid in ledger["stored"]]
    server = set(stored)
    failures: list[str] = []
    accepted_before: set[str] = set()
    lost_ids: set[str] = set()
    versions: dict[str, set[str]] = {}
    unaccepted_total = 0
    rows = []
    for boot in range(1, cycles + 2):
        directory = out / f"boot-{boot}"
        if not (directory / "guest.log").exists():
            failures.append(f"the run stopped before boot {boot}")
            break
        if boot > 1:
            export_rc = (directory / "export.rc").read_text().strip() if (directory / "export.rc").exists() else "missing"
            # A cut before the daemon made its queue (it can fall 17 ms after the start) leaves no
            # queue, which loses nothing while no sample has been accepted yet.
            never_made = export_rc == "66" and not accepted_before
            if export_rc != "0" and not never_made:
                failures.append(f"boot {boot}: queue export exit {export_rc}: {(directory / 'export.err').read_text(errors='replace').strip()[:300] if (directory / 'export.err').exists() else ''}")
            pending = exported_ids(directory / "pending.jsonl")
            lost = accepted_before - pending - server - lost_ids
            lost_ids |= lost
            if lost:
                failures.append(f"boot {boot}: {len(lost)} samples accepted before the cut are neither queued nor at the server, e.g. {sorted(lost)[:3]}")
            try:
                status = json.loads((directory / "status.json").read_text())
                if not status["uplink"]["enrolled"]:
                    failures.append(f"boot {boot}: the gateway is no longer enrolled: {status['uplink']}")
                if len(status["sensors"]) != 2:
                    failures.append(f"boot {boot}: {len(status['sensors'])} straps bound, not 2")
            except (OSError, ValueError, KeyError) as error:
                failures.append(f"boot {boot}: status --json unreadable: {error}")
            hashes = (directory / "state-hashes.txt").read_text() if (directory / "state-hashes.txt").exists() else ""
            for name in ("credentials.json", "sensors.json"):
                found = [line.split()[0] for line in hashes.splitlines() if line.endswith("/" + name) and len(line.split()[0]) == 64]
                if found:
                    versions.setdefault(name, set()).add(found[0])
                else:
                    failures.append(f"boot {boot}: {name} is missing or unreadable: {hashes.strip()[:200]}")
            if (directory / "import.rc").exists():
                failures.append(f"boot {boot}: a queue was moved aside as damaged: {(directory / 'import.txt').read_text()[:300]}")
        else:
            pending = set()
        accepted = accepted_ids(directory / "daemon.log")
        accepted_before |= accepted
        sent_text = (directory / "sent").read_text().strip() if (directory / "sent").exists() else ""
        unaccepted = max(0, int(sent_text) - len(accepted)) if sent_text and boot <= cycles else 0
        unaccepted_total += unaccepted
        cut = (directory / "cut-after-ms").read_text().strip() if (directory / "cut-after-ms").exists() else "-"
        rows.append(f"boot {boot:>3}: queued at boot {len(pending):>5}, accepted {len(accepted):>5}, cut after {cut:>5} ms, received never accepted {unaccepted:>3}")
    final = out / f"boot-{cycles + 1}"
    if not (final / "done").exists():
        failures.append("the last boot did not drain the queue and stop")
    for name in ("daemon.rc", "daemon-drain.rc"):
        rc = (final / name).read_text().strip() if (final / name).exists() else "missing"
        if rc != "0":
            failures.append(f"the last boot's {name.removesuffix('.rc')} stopped with exit status {rc}")
    left = exported_ids(final / "pending-after.jsonl")
    never_delivered = accepted_before - server - left
    if never_delivered:
        failures.append(f"{len(never_delivered)} accepted samples never reached the server nor stayed queued")
    if left:
        failures.append(f"{len(left)} samples still queued after the last boot's drain")
    twice = len(stored) - len(server)
    if twice:
        failures.append(f"{twice} samples stored twice at the server")
    for row in rows:
        print("test-powercut: " + row)
    print(
        f"test-powercut: {cycles} power cuts; {len(accepted_before)} samples accepted, {len(server)} stored at the server, "
        f"{len(left)} still queued; lost accepted {len(lost_ids | never_delivered)}; received never accepted {unaccepted_total}; "
        f"stored twice {twice}; duplicates the server refused (re-sent after a cut) {ledger['duplicates_refused']}")
    print("test-powercut: after every cut the gateway was enrolled with both straps bound; versions seen: "
          + ", ".join(f"{name} {len(seen)}" for name, seen in sorted(versions.items())))
    for failure in failures:
        print("test-powercut: FAILED: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
