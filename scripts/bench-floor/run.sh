#!/usr/bin/env bash
# The floor under the gateway's per-notification cost (docs/PERFORMANCE.md, "The floor"):
# notify-floor.c, a minimal libdbus client in C, against the lab's simulated bluetoothd with
# one strap, at 10 and ~200 notifications per second over PropertiesChanged and at 10 per second
# over the AcquireNotify socket (any number of straps: "10 1000 acquire"), and with 10 and 50
# straps at 1 Hz, measured like the footprint benchmark
# (a 10 s warm-up, then a window of FLOOR_SECONDS); then store-floor.c, the bytes written per
# sample by SQLite configured as the queue is and by a bare append-and-fdatasync log, at 10 and
# 180 samples per second for FLOOR_SECONDS, in a directory on the same file system as /tmp.
#
# usage: scripts/bench-floor/run.sh [LAB_BINARY]   (default: the release edge-gateway-lab)
# FLOOR_LOADS and FLOOR_STORES choose the runs ("STRAPS INTERVAL_MS properties|acquire" and
# "sqlite|log RATE ACK_BATCH", comma-separated); with FLOOR_RECORDS=FILE each result is also
# appended to FILE as a JSON object (what scripts/bench-peer/summary.py reads).
set -euo pipefail
lab=${1:+$(realpath "$1")}
cd "$(dirname "$0")/../.."
lab=${lab:-$(swift build -c release --show-bin-path)/edge-gateway-lab}
seconds=${FLOOR_SECONDS:-60}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null; rm -rf "$work"' EXIT
cc -O2 -Wall -o "$work/notify-floor" scripts/bench-floor/notify-floor.c $(pkg-config --cflags --libs dbus-1)
cc -O2 -Wall -o "$work/store-floor" scripts/bench-floor/store-floor.c $(pkg-config --cflags --libs sqlite3)

# The Heart Rate Measurement characteristic of the connected strap $1 on bus $bus.
measurement() {
    local device=/org/bluez/hci0/dev_${1//:/_} path uuid
    for _ in $(seq 100); do
        for path in $(busctl --address="$bus" tree org.bluez --list | grep "^$device/service.*/char"); do
            uuid=$(busctl --address="$bus" get-property org.bluez "$path" org.bluez.GattCharacteristic1 UUID)
            [ "$uuid" = 's "00002a37-0000-1000-8000-00805f9b34fb"' ] && echo "$path" && return
        done
        sleep 0.1
    done
}

loads=${FLOOR_LOADS:-1 100 properties,1 5 properties,1 100 acquire,10 1000 properties,50 1000 properties}
stores=${FLOOR_STORES:-sqlite 10 100,log 10 0,sqlite 180 100,log 180 0}

# Appends a JSON object of the fields given as NAME VALUE pairs (numbers, or strings quoted by
# the caller) to FLOOR_RECORDS, with the load averages now.
record() {
    [ -n "${FLOOR_RECORDS:-}" ] || return 0
    local json="{" load
    while [ $# -gt 1 ]; do json+="\"$1\": $2, "; shift 2; done
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "$json\"load\": \"$load\"}" >> "$FLOOR_RECORDS"
}

IFS=, read -ra load_runs <<< "$loads"
for run in "${load_runs[@]}"; do
    read -r straps interval transport <<< "$run"
    "$lab" simulate --sensors "$straps" --interval-ms "$interval" --print-address > "$work/sim.txt" &
    simulator=$!
    for _ in $(seq 100); do [ "$(wc -l < "$work/sim.txt")" -gt "$straps" ] && break; sleep 0.1; done
    bus=$(head -1 "$work/sim.txt" | cut -d= -f2-)
    characteristics=
    for strap in $(tail -n +2 "$work/sim.txt"); do
        busctl --address="$bus" call org.bluez "/org/bluez/hci0/dev_${strap//:/_}" org.bluez.Device1 Connect
        characteristics=${characteristics:+$characteristics,}$(measurement "$strap")
    done
    printf '%s strap(s) every %s ms, %s: ' "$straps" "$interval" "$transport"
    out=$("$work/notify-floor" "$bus" "$characteristics" 10 "$seconds" $([ "$transport" = acquire ] && echo acquire))
    echo "$out"
    record scenario "\"${straps}x$((1000 / interval))hz-$transport\"" subject '"floor"' \
        cpu_us_per_sample "$(sed -E 's/.*CPU ([0-9.]+) µs\/notification.*/\1/' <<< "$out")" \
        wakeups_per_s "$(sed -E 's/.* ([0-9.]+) wake-ups\/s.*/\1/' <<< "$out")"
    kill "$simulator"; wait "$simulator" 2>/dev/null || true
done

IFS=, read -ra store_runs <<< "$stores"
for run in "${store_runs[@]}"; do
    read -r store rate batch <<< "$run"
    mkdir "$work/$store-$rate"
    "$work/store-floor" "$store" "$work/$store-$rate" "$rate" "$seconds" "$batch" > "$work/$store-$rate.txt" &
done
wait
for run in "${store_runs[@]}"; do
    read -r store rate batch <<< "$run"
    out=$(cat "$work/$store-$rate.txt")
    echo "$out"
    record subject "\"store-floor-$store\"" samples_per_s "$rate" \
        bytes_per_sample "$(sed -E 's/.* ([0-9.]+) bytes written.*/\1/' <<< "$out")" \
        cpu_us_per_sample "$(sed -E 's/.* ([0-9.]+) µs CPU per sample.*/\1/' <<< "$out")"
done
