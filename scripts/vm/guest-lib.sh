# Shell helpers for the VM tiers' guest scripts (scripts/test-bluez/guest-init.sh,
# scripts/test-systemd/guest-test.sh, scripts/test-powercut/guest-init.sh): the setup of a
# PID 1, logging, waiting on a condition, recorded steps and the
# adapters as bluetoothd shows them. Steps write NAME.out, NAME.err, NAME.rc and NAME.seconds
# into /out, the 9p share the host reads afterwards. EGW_MAX_ATTEMPTS comes from /out/env.

# The first steps of a guest's PID 1 on the overlay root: the kernel's file systems, loopback
# (jhe-simulator and the uplink talk over it), the host's results directory (/out, over 9p) and
# the variables run.sh left there (/out/env).
guest_setup() {
    mount -t proc proc /proc
    mount -t sysfs sysfs /sys
    ln -sf /proc/self/fd /dev/fd
    mkdir -p /dev/pts /dev/shm && mount -t devpts devpts /dev/pts && mount -t tmpfs tmpfs /dev/shm
    mount -t tmpfs -o mode=0755 tmpfs /run
    ip link set lo up
    mkdir -p /out && mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /out
    # shellcheck source=/dev/null
    . /out/env
}

# Powers the guest off, its writes synced first: a PID 1's trap on EXIT.
power_off() {
    sync
    echo o > /proc/sysrq-trigger
    sleep 60
}

stamp() { date -u +%H:%M:%S.%N | cut -c1-12; }
log() { echo "[$(stamp)] $*"; }

# Waits up to $1 seconds, times EGW_WAIT_SCALE (default 3: a CI machine's TCG guest has run
# 2.4 times slower than a quiet one's), for the command after it to succeed. Deadlines only
# cost time when something is broken.
wait_for() {
    local seconds=$1; shift
    local deadline=$((SECONDS + seconds * ${EGW_WAIT_SCALE:-3}))
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || return 1
        sleep 0.5
    done
}

# Runs step NAME (a shell function), recording its output, exit status and duration.
step() {
    local name=$1; shift
    local started=$SECONDS
    log "step $name: start"
    "$@" > "/out/$name.out" 2> "/out/$name.err"
    local rc=$?
    echo "$rc" > "/out/$name.rc"
    echo "$((SECONDS - started))" > "/out/$name.seconds"
    log "step $name: exit $rc after $((SECONDS - started)) s"
    return $rc
}

# Records that attempt $2 of step $1 failed, for reason $3 (the summary lists every retry).
note_retry() {
    log "retry: $1 attempt $2 failed ($3)"
    echo "$1 attempt $2: $3" >> /out/retries
}

# Runs the command after the first two arguments up to EGW_MAX_ATTEMPTS times; each failed
# attempt is a retry of step $1, recorded with reason $2.
retrying() {
    local name=$1 what=$2; shift 2
    local attempt
    for ((attempt = 1; attempt <= EGW_MAX_ATTEMPTS; attempt++)); do
        "$@" && return 0
        note_retry "$name" "$attempt" "$what"
    done
    return 1
}

adapter_property() {
    busctl get-property org.bluez "/org/bluez/$1" org.bluez.Adapter1 "$2" 2>/dev/null
}

# Powers adapter $1 through bluetoothd (the controller reset happens here) and waits for it.
power_on() {
    timeout 60 busctl --timeout=50 set-property org.bluez "/org/bluez/$1" org.bluez.Adapter1 Powered b true \
        && wait_for 30 adapter_powered "$1"
}

adapter_powered() { test "$(adapter_property "$1" Powered)" = "b true"; }

bluez_on_bus() {
    busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetNameOwner s org.bluez
}

# bluetoothd on the bus with every controller (EGW_CONTROLLERS, default hci0 hci1) powered.
stack_ready() {
    bluez_on_bus || return 1
    local adapter
    for adapter in ${EGW_CONTROLLERS:-hci0 hci1}; do adapter_powered "$adapter" || return 1; done
}

# The peripheral, starting the script at line $1 (further arguments: its options, e.g. --loop);
# its JSON lines go to /out/peripheral.jsonl.
start_peripheral() {
    local start=$1; shift
    local ready_lines=$(($(grep -c '"ready"' /out/peripheral.jsonl 2>/dev/null) + 1))
    "$EGW_BIN/edge-gateway-peripheral" --adapter hci1 --frames "$EGW_FRAMES" --start-index "$start" "$@" \
        --interval-ms "$EGW_INTERVAL_MS" >> /out/peripheral.jsonl 2>> /out/peripheral-stderr.log &
    PERIPHERAL_PID=$!
    wait_for 120 peripheral_ready "$ready_lines"
}

# A strap of its own on adapter $1, streaming the frame script in a loop: its JSON lines go to
# /out/strap-$1.jsonl and its pid to STRAP_PID.
start_strap() {
    "$EGW_BIN/edge-gateway-peripheral" --adapter "$1" --frames "$EGW_FRAMES" --loop --interval-ms "$EGW_INTERVAL_MS" \
        >> "/out/strap-$1.jsonl" 2>> "/out/strap-$1-stderr.log" &
    STRAP_PID=$!
    wait_for 120 grep -q '"ready"' "/out/strap-$1.jsonl"
}

# Whether the peripheral has said "ready" at least $1 times (once per start).
peripheral_ready() { test "$(grep -c '"ready"' /out/peripheral.jsonl)" -ge "$1"; }
# How many times the peripheral has registered again with a restarted bluetoothd, and whether
# it has at least $1 times.
registrations() { grep -c '"registered-again"' /out/peripheral.jsonl; }
peripheral_registered_again() { test "$(registrations)" -ge "$1"; }

# The sum of a per-strap counter in the daemon's status.json (rewritten every 5 s), or, with
# --written, the report's time as seconds since the epoch.
status() {
    /usr/bin/python3 -c 'import json, sys, datetime
report = json.load(open("/var/lib/edge-gateway/status.json"))
if sys.argv[1] == "--written":
    print(int(datetime.datetime.fromisoformat(report["writtenAt"].replace("Z", "+00:00")).timestamp()))
else:
    print(sum(s[sys.argv[1]] for s in report["sensors"]))' "$1" 2>/dev/null || echo 0
}
delivered_at_least() { (($(status samplesDelivered) >= $1)); }
