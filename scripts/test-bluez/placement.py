#!/usr/bin/env python3
"""Reads the daemon's status.json in STATE_DIR for the adapters step of the test-bluez guest.

  placement.py STATE_DIR split              prints the adapter holding two straps, then the one
                                            holding one (a 2 + 1 placement)
  placement.py STATE_DIR spilled ADAPTER    ADAPTER holds two subscribed straps and every other
                                            sensor waits for a slot on it; prints the waiting one
  placement.py STATE_DIR delivering N       N samples delivered in all
  placement.py STATE_DIR drained            every accepted sample answered by the server
  placement.py STATE_DIR summary PHASE      the report as one JSON line (sensors, adapters)

Exits 0 when the condition holds, 1 otherwise.
"""
import json
import sys
from pathlib import Path


def main(state_dir, query, *arguments):
    try:
        report = json.loads((Path(state_dir) / "status.json").read_text())
    except (OSError, ValueError):
        return 1
    sensors = {sensor["address"]: sensor for sensor in report.get("sensors", [])}
    adapters = {adapter["name"]: adapter for adapter in report.get("adapters", [])}
    subscribed = {address: sensor for address, sensor in sensors.items() if sensor.get("state") == "subscribed"}
    if query == "split":
        holding = sorted(adapters, key=lambda name: -len(adapters[name]["straps"]))
        if [len(adapters[name]["straps"]) for name in holding] == [2, 1] and len(subscribed) == 3:
            print(*holding)
            return 0
        return 1
    if query == "spilled":
        adapter = arguments[0]
        here = [address for address, sensor in subscribed.items() if sensor.get("adapter") == adapter]
        others = [address for address in sensors if address not in here]
        waiting = f"waiting: no free connection slot on {adapter}"
        if len(here) == 2 and others and all(sensors[address].get("stateDetail") == waiting for address in others):
            print(*others)
            return 0
        return 1
    if query == "delivering":
        return 0 if sum(sensor["samplesDelivered"] for sensor in sensors.values()) >= int(arguments[0]) else 1
    if query == "drained":
        return 0 if sensors and all(
            sensor["samplesAccepted"] > 0
            and sensor["samplesDelivered"] + sensor["samplesDuplicate"] + sensor["samplesRejected"] == sensor["samplesAccepted"]
            for sensor in sensors.values()) else 1
    if query == "summary":
        print(json.dumps({
            "phase": arguments[0],
            "adapters": {name: {"powered": a["powered"], "straps": a["straps"]} for name, a in adapters.items()},
            "sensors": {address: {key: sensor.get(key) for key in (
                "adapter", "state", "stateDetail", "samplesReceived", "samplesAccepted", "samplesDelivered",
                "samplesDuplicate", "samplesRejected")} for address, sensor in sensors.items()},
        }, sort_keys=True))
        return 0
    sys.exit(f"unknown query {query}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
