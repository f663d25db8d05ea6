#!/usr/bin/env bash
# The floor under the gateway's per-notification cost (docs/PERFORMANCE.md, "The floor"):
# notify-floor.c, a minimal libdbus client in C, against the lab's simulated bluetoothd with
# one strap, at 10 and ~200 notifications per second over PropertiesChanged and at 10 per second
# over the AcquireNotify socket, measured like the footprint benchmark
# (a 10 s warm-up, then a window of FLOOR_SECONDS); then store-floor.c, the bytes written per
# sample by SQLite configured as the queue is and by a bare append-and-fdatasync log, at 10 and
# 180 samples per second for FLOOR_SECONDS, in a directory on the same file system as /tmp.
#
# usage: scripts/bench-floor/run.sh [LAB_BINARY]   (default: the release edge-gateway-lab)
set -euo pipefail
lab=${1:+$(realpath "$1")}
cd "$(dirname "$0")/../.."
lab=${lab:-$(swift build -c release --show-bin-path)/edge-gateway-lab}
seconds=${FLOOR_SECONDS:-60}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
cc -O2 -Wall -o "$work/notify-floor" scripts/bench-floor/notify-floor.c $(pkg-config --cflags --libs dbus-1)
cc -O2 -Wall -o "$work/store-floor" scripts/bench-floor/store-floor.c $(pkg-config --cflags --libs sqlite3)

for run in "100 properties" "5 properties" "100 acquire"; do
    read -r interval transport <<< "$run"
    "$lab" simulate --sensors 1 --interval-ms "$interval" --print-address > "$work/sim.txt" &
    simulator=$!
    for _ in $(seq 100); do [ "$(wc -l < "$work/sim.txt")" -ge 2 ] && break; sleep 0.1; done
    bus=$(head -1 "$work/sim.txt" | cut -d= -f2-)
    strap=$(sed -n 2p "$work/sim.txt")
    device=/org/bluez/hci0/dev_${strap//:/_}
    busctl --address="$bus" call org.bluez "$device" org.bluez.Device1 Connect
    characteristic=
    for _ in $(seq 100); do
        for path in $(busctl --address="$bus" tree org.bluez --list | grep "^$device/service.*/char"); do
            uuid=$(busctl --address="$bus" get-property org.bluez "$path" org.bluez.GattCharacteristic1 UUID)
            [ "$uuid" = 's "00002a37-0000-1000-8000-00805f9b34fb"' ] && characteristic=$path
        done
        [ -n "$characteristic" ] && break
        sleep 0.1
    done
    printf '1 strap every %s ms, %s: ' "$interval" "$transport"
    "$work/notify-floor" "$bus" "$characteristic" 10 "$seconds" $([ "$transport" = acquire ] && echo acquire)
    kill "$simulator"; wait "$simulator" 2>/dev/null || true
done

for run in "sqlite 10 100" "log 10 0" "sqlite 180 100" "log 180 0"; do
    read -r store rate batch <<< "$run"
    mkdir "$work/$store-$rate"
    "$work/store-floor" "$store" "$work/$store-$rate" "$rate" "$seconds" "$batch" > "$work/$store-$rate.txt" &
done
wait
cat "$work"/sqlite-10.txt "$work"/log-10.txt "$work"/sqlite-180.txt "$work"/log-180.txt
