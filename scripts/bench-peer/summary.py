#!/usr/bin/env python3
"""Medians, ratios and targets of a scripts/bench-peer/run.sh run.

Reads the JSON lines `edge-gateway-lab footprint --records` and scripts/bench-floor/run.sh
(FLOOR_RECORDS) wrote, and prints per load: edge-gateway, the peer and the floor (medians of
their runs, with the load averages seen), the ratios, and issue 34's targets met or not.
"""
import json
import statistics
import sys

LOADS = ["1x10hz-properties", "10x1hz-properties", "1x10hz-acquire", "10x1hz-acquire"]
TARGETS = {  # figure: (limit, unit)
    "cpu_us_per_sample": (100.0, "µs"),
    "bytes_per_sample": (550.0, "B"),
    "private_dirty_mb": (4.0, "MB"),
    "rss_mb": (20.0, "MB"),
}


def median(runs, field):
    values = [r[field] for r in runs if r.get(field) is not None]
    return statistics.median(values) if values else None


def fmt(value, digits=1):
    return "–" if value is None else f"{value:,.{digits}f}"


def main(path):
    with open(path) as f:
        runs = [json.loads(line) for line in f if line.strip()]
    print()
    print("| load | measured | runs | CPU µs/sample | bytes written/sample | private dirty MB | RSS MB | wake-ups/s | exactly once | load averages (1, 5, 15 min) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    medians = {}
    stores = {}
    for store in ("store-floor-log", "store-floor-sqlite"):
        group = [r for r in runs if r["subject"] == store]
        if group:
            stores[store] = group
    for load in LOADS:
        for subject in ("edge-gateway", "peer", "floor"):
            group = [r for r in runs if r.get("scenario") == load and r["subject"] == subject]
            if not group:
                continue
            m = {k: median(group, k) for k in ("cpu_us_per_sample", "bytes_per_sample", "private_dirty_mb", "rss_mb", "wakeups_per_s")}
            medians[(load, subject)] = m
            once = [r["exactly_once"] for r in group if "exactly_once" in r]
            print(f"| {load} | {subject} | {len(group)} | {fmt(m['cpu_us_per_sample'])} | {fmt(m['bytes_per_sample'], 0)} | "
                  f"{fmt(m['private_dirty_mb'])} | {fmt(m['rss_mb'])} | {fmt(m['wakeups_per_s'])} | "
                  f"{f'{sum(once)}/{len(once)}' if once else '–'} | {'; '.join(r['load'] for r in group)} |")
    for store, group in stores.items():
        print(f"| {group[0]['samples_per_s']} samples/s | {store} | {len(group)} | {fmt(median(group, 'cpu_us_per_sample'))} | "
              f"{fmt(median(group, 'bytes_per_sample'), 0)} | – | – | – | – | {'; '.join(r['load'] for r in group)} |")
    print()
    for load in LOADS:
        gateway = medians.get((load, "edge-gateway"))
        if not gateway:
            continue
        parts = []
        peer = medians.get((load, "peer"))
        floor = medians.get((load, "floor"))
        for field, name in (("cpu_us_per_sample", "CPU"), ("bytes_per_sample", "bytes"), ("private_dirty_mb", "private dirty")):
            if peer and peer.get(field) and gateway.get(field) is not None:
                parts.append(f"{name} {gateway[field] / peer[field]:.2f}× the peer's")
        if floor and floor.get("cpu_us_per_sample"):
            parts.append(f"CPU {gateway['cpu_us_per_sample'] / floor['cpu_us_per_sample']:.2f}× the notification floor")
        if "store-floor-log" in stores:
            parts.append(f"bytes {gateway['bytes_per_sample'] / median(stores['store-floor-log'], 'bytes_per_sample'):.2f}× a bare log's")
        verdicts = []
        for field, (limit, unit) in TARGETS.items():
            value = gateway.get(field)
            if value is not None:
                verdicts.append(f"{field} {fmt(value)} {'≤' if value <= limit else '>'} {limit:g} {unit}: {'met' if value <= limit else 'NOT met'}")
        print(f"{load}: " + ", ".join(parts))
        print(f"  targets: " + "; ".join(verdicts))


if __name__ == "__main__":
    main(sys.argv[1])
