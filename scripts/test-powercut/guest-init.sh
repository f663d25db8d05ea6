#!/bin/bash
# Stage 2 of the test-powercut guest: PID 1 on the overlay root, once per boot. The state
# directory is the ext4 file system on the virtio disk /dev/vda, the one thing that outlives the
# VM (the root is a tmpfs overlay). The host (run.sh) writes /out/env before each boot: the boot
# number, what this boot does (cut: ingest until the host kills qemu; final: upload everything,
# stop, power off) and whether the uplink is up. Everything this boot reports goes to
# /out/boot-N/ over 9p, whose writes reach the host's file before they return, so what was
# written before the cut is there after it: above all the daemon's debug log, whose "accepted
# samples" lines name every sample it made durable.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8

# shellcheck source=../vm/guest-lib.sh
. "$(dirname "$0")/../vm/guest-lib.sh"
guest_setup
boot=/out/boot-$EGW_BOOT
mkdir -p "$boot"
exec > >(tee -a "$boot/guest.log") 2>&1
trap power_off EXIT

state=/var/lib/edge-gateway
gateway() { "$EGW_BIN/edge-gateway" "$@" --state-dir "$state"; }

# The state disk: ext4 as Raspberry Pi OS mounts its root (data=ordered, the default). Mounting
# replays the journal after a cut.
modprobe virtio_blk && modprobe ext4 && modprobe virtio_net
wait_for 30 test -b /dev/vda || { log "no /dev/vda"; exit 1; }
mkdir -p "$state"
mount -t ext4 /dev/vda "$state" || { log "cannot mount the state disk"; dmesg | tail -20; exit 1; }
chmod 700 "$state"
dmesg | grep -E "EXT4-fs \(vda\)" > "$boot/mount.txt"

# The uplink: JHE's stand-in runs on the host (it must outlive the cuts); the gateway reaches it
# at its loopback URL through a forwarder to the host (10.0.2.2 on qemu's user network). With
# the uplink down the forwarder is not started: connections are refused and samples queue up.
ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0
if [[ $EGW_UPLINK == up ]]; then
    socat "TCP-LISTEN:$EGW_PORT,bind=127.0.0.1,fork,reuseaddr" "TCP:10.0.2.2:$EGW_PORT" &
fi

"$EGW_BIN/edge-gateway-lab" simulate --sensors "$EGW_STRAPS" --interval-ms "$EGW_INTERVAL_MS" --print-address \
    --sent-file "$boot/sent" > /run/simulate.txt 2> "$boot/simulate.err" &
simulator=$!
simulator_ready() { (($(wc -l < /run/simulate.txt) > EGW_STRAPS)); }
wait_for 60 simulator_ready || { log "the simulator did not start"; exit 1; }
export "$(head -1 /run/simulate.txt)"

if [[ $EGW_BOOT == 1 ]]; then
    step enrol gateway enroll "$EGW_LINK" || exit 1
    index=0
    for address in $(tail -n +2 /run/simulate.txt); do
        index=$((index + 1))
        step "pair-$index" gateway pair "$address" --alias "bed $index" --patient 40001 || exit 1
    done
fi

# What survived the last cut, before the daemon touches anything: the state files, every queued
# sample's id, and a queue an earlier daemon moved aside as damaged (imported, as the operator
# would; none is expected).
ls -la "$state" > "$boot/state-files.txt"
sha256sum "$state/credentials.json" "$state/sensors.json" > "$boot/state-hashes.txt" 2>&1
gateway status --json > "$boot/status.json" 2> "$boot/status.err"
if ls "$state" | grep -q "\.corrupt-"; then
    gateway queue import > "$boot/import.txt" 2>&1
    echo $? > "$boot/import.rc"
fi
gateway queue export > "$boot/pending.jsonl" 2> "$boot/export.err"
echo $? > "$boot/export.rc"

mkdir -p /run/edge-gateway
log "starting the daemon (uplink $EGW_UPLINK, $EGW_MODE)"
date +%s.%N > "$boot/started"
RUNTIME_DIRECTORY=/run/edge-gateway EDGE_GATEWAY_GATEWAY_HOLD_UNTIL_CLOCK_SYNC=false EDGE_GATEWAY_UPLINK_INTERVAL_S=2 \
    "$EGW_BIN/edge-gateway" run --state-dir "$state" --log-level debug 2> "$boot/daemon.log" &
daemon=$!

if [[ $EGW_MODE == cut ]]; then
    wait "$daemon"
    log "the daemon ended before the cut: exit $?"
    exit 1
fi

# The last boot: the straps and the daemon stop (it commits what it holds), then a daemon
# with no straps to read uploads everything queued, and stops once nothing is.
pending() { gateway queue stats --json 2> /dev/null | python3 -c 'import json, sys; q = json.load(sys.stdin); print(q["pending"] + q["leased"])'; }
drained() { test "$(pending)" = 0; }
streamed() { (($(cat "$boot/sent" 2> /dev/null || echo 0) >= 40)); }
wait_for 60 streamed
kill -TERM "$simulator"
kill -TERM "$daemon"
wait "$daemon"
echo $? > "$boot/daemon.rc"
RUNTIME_DIRECTORY=/run/edge-gateway EDGE_GATEWAY_UPLINK_INTERVAL_S=2 \
    "$EGW_BIN/edge-gateway" run --state-dir "$state" --log-level debug 2> "$boot/daemon-drain.log" &
daemon=$!
wait_for 300 drained
log "queue drained: pending $(pending)"
kill -TERM "$daemon"
wait "$daemon"
echo $? > "$boot/daemon-drain.rc"
gateway queue export > "$boot/pending-after.jsonl" 2> "$boot/export-after.err"
echo done > "$boot/done"
