#!/usr/bin/env python3
"""Reads the daemon's status.json in STATE_DIR for the adapters step of the test-bluez guest.

  placement.py STATE_DIR subscribed N       N sensors subscribed, no adapter holding two
  placement.py STATE_DIR where ADDRESS      prints the adapter the sensor streams through
  placement.py STATE_DIR free               prints a powered adapter holding no strap
  placement.py STATE_DIR on ADDRESS ADAPTER the sensor streams through ADAPTER
  placement.py STATE_DIR waits ADDRESS ADAPTERS  the sensor waits for a slot on ADAPTERS
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
    if query == "subscribed":
        return 0 if len(subscribed) == int(arguments[0]) and all(len(a["straps"]) <= 1 for a in adapters.values()) else 1
    if query == "where":
        sensor = subscribed.get(arguments[0])
        if sensor and sensor.get("adapter"):
            print(sensor["adapter"])
            return 0
        return 1
    if query == "free":
        free = sorted(name for name, adapter in adapters.items() if adapter["powered"] and not adapter["straps"])
        if free:
            print(free[0])
            return 0
        return 1
    if query == "on":
        return 0 if subscribed.get(arguments[0], {}).get("adapter") == arguments[1] else 1
    if query == "waits":
        detail = sensors.get(arguments[0], {}).get("stateDetail", "")
        return 0 if detail == f"waiting: no free connection slot on {arguments[1]}" else 1
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
