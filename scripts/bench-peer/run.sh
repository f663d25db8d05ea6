#!/usr/bin/env bash
# edge-gateway beside the least any gateway pays and, given its directory, a peer gateway (the
# hand-written Python one: peer_gateway.py + sink.py), at the loads issue 34 sets targets for:
# 1 strap notifying 10 times a second and 10 straps once a second, with the straps offering
# StartNotify alone (PropertiesChanged, as issue 34 measured) and AcquireNotify too (as real
# bluetoothd does for a heart-rate strap: the daemon takes the socket, the peer's bleak takes
# StartNotify by default). Each round measures, one process at a time and in turns: the daemon,
# the peer (one process per strap), then the floor (scripts/bench-floor: a C libdbus client
# that only reads the notifications, as they come, and a bare append-and-fdatasync log and
# SQLite as the queue is configured, at 10 samples a second). Then scripts/bench-peer/summary.py
# prints the medians, the ratios, the targets and the machine's load during each run.
#
# usage: scripts/bench-peer/run.sh LAB_BINARY GATEWAY_BINARY [PEER_DIR]
#   PEER_ROUNDS (3), PEER_SECONDS (120: each window), PEER_TRANSPORTS ("properties acquire"),
#   PEER_PYTHON (a venv with the peer's requirements; made in ~/.cache/edge-gateway-peer-venv
#   from PEER_DIR/requirements.txt when unset)
set -euo pipefail
lab=$(realpath "$1")
gateway=$(realpath "$2")
peer=${3:+$(realpath "$3")}
cd "$(dirname "$0")/../.."
rounds=${PEER_ROUNDS:-3}
seconds=${PEER_SECONDS:-120}
scenarios=()
floor_loads=
for transport in ${PEER_TRANSPORTS:-properties acquire}; do
    scenarios+=(--scenario "1x10hz-$transport" --scenario "10x1hz-$transport")
    floor_loads+=${floor_loads:+,}"1 100 $transport,10 1000 $transport"
done
records=$(mktemp --suffix=.jsonl)
trap 'rm -f "$records"' EXIT

peer_options=()
if [ -n "$peer" ]; then
    python=${PEER_PYTHON:-}
    if [ -z "$python" ]; then
        venv=$HOME/.cache/edge-gateway-peer-venv
        [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet -r "$peer/requirements.txt"
        python=$venv/bin/python
    fi
    peer_options=(--peer "$peer" --peer-python "$python")
fi

for round in $(seq "$rounds"); do
    echo "== round $round of $rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$lab" footprint "${scenarios[@]}" --runs 1 --seconds "$seconds" \
        --gateway "$gateway" "${peer_options[@]}" --records "$records" | grep -v '^|' | grep .
    FLOOR_SECONDS=$seconds FLOOR_RECORDS=$records FLOOR_LOADS="$floor_loads" \
        FLOOR_STORES="sqlite 10 100,log 10 0" scripts/bench-floor/run.sh "$lab"
done
python3 scripts/bench-peer/summary.py "$records"
