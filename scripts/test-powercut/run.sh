#!/bin/bash
# make test-powercut: power cuts, for real. The daemon runs in a qemu VM (Debian's kernel on the
# host's root, as the other VM tiers) with its state directory on an ext4 virtio disk, ingesting
# from simulated straps and uploading to JHE's stand-in on the host; the host kills qemu (SIGKILL:
# the guest's page cache and every write it had not handed to the disk are gone, as when the
# power goes) at a random moment, up to 12 s after the daemon was started, and boots it again on
# the same disk. The uplink is up or down at random for each boot after the first, so the queue both drains and
# fills. A last boot uploads everything and stops cleanly. check.py then proves, by sample id,
# that every sample the daemon had logged as accepted before a cut was in the queue when the VM
# came back or already at the server, and that the server stored none twice.
#
# Environment: EGW_POWERCUT_CYCLES (cuts, default 20), EGW_BIN (edge-gateway as shipped and
# edge-gateway-lab; default: scripts/tier-binaries.sh's), EGW_KEEP (keep the work directory), EGW_SEED
# (the random choices' seed; printed, so a run can be repeated).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
here=$repo/scripts/test-powercut
started=$SECONDS

say() { echo "test-powercut: $*"; }

# shellcheck source=../vm/guest-vm.sh
. "$repo/scripts/vm/guest-vm.sh"
ensure_packages qemu-system-x86 linux-image-amd64 busybox-static kmod dbus-daemon socat e2fsprogs python3
kernel_version=$(guest_kernel)
cycles=${EGW_POWERCUT_CYCLES:-20}
seed=${EGW_SEED:-$((SECONDS + $$))}
RANDOM=$seed

work=$(mktemp -d /tmp/test-powercut.XXXXXX)
jhe_pid=
cleanup() {
    [[ -n $jhe_pid ]] && kill -KILL "$jhe_pid" 2> /dev/null
    if [[ -n ${EGW_KEEP:-} ]]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

if [[ -z ${EGW_BIN:-} ]]; then
    EGW_BIN=$work/bin
    scripts/tier-binaries.sh "$EGW_BIN"
fi
EGW_BIN=$(realpath "$EGW_BIN")
say "binaries from $EGW_BIN, ready after $((SECONDS - started)) s; $cycles cuts, seed $seed"

out=$work/out
mkdir -p "$out"
build_initramfs "$kernel_version" "$work/initrd.gz"
truncate -s 256M "$work/state.img"
mkfs.ext4 -q -F "$work/state.img"

"$EGW_BIN/edge-gateway-lab" jhe-simulator --port 0 --ledger "$work/ledger.json" > "$work/jhe.out" 2>&1 &
jhe_pid=$!
for _ in $(seq 1 120); do grep -q "^invitation link: " "$work/jhe.out" && break; sleep 0.5; done
link=$(sed -n 's/^invitation link: //p' "$work/jhe.out")
[[ -n $link ]] || { say "the JHE stand-in did not start: $(cat "$work/jhe.out")"; exit 1; }
port=$(sed -n 's|^JHE simulator listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$work/jhe.out")

status=0
for ((boot = 1; boot <= cycles + 1; boot++)); do
    mode=cut uplink=up
    ((boot > cycles)) && mode=final
    # The first boot enrols, over the uplink.
    [[ $mode == cut ]] && ((boot > 1 && RANDOM % 2)) && uplink=down
    cat > "$out/env" << ENV
EGW_BIN=$EGW_BIN
EGW_BOOT=$boot
EGW_MODE=$mode
EGW_UPLINK=$uplink
EGW_LINK='$link'
EGW_PORT=$port
EGW_STRAPS=2
EGW_INTERVAL_MS=100
ENV
    rm -f "$work/qemu.pid"
    mkdir -p "$out/boot-$boot"
    boot_guest "$kernel_version" "$work/initrd.gz" "$here/guest-init.sh" "$out" 600 \
        -drive "file=$work/state.img,if=virtio,format=raw" -netdev user,id=net0 -device virtio-net-pci,netdev=net0 \
        -pidfile "$work/qemu.pid" 2> "$out/boot-$boot/qemu.err" &
    guest=$!
    if [[ $mode == cut ]]; then
        for _ in $(seq 1 600); do [[ -f $out/boot-$boot/started ]] || ! kill -0 "$guest" 2> /dev/null && break; sleep 0.5; done
        if [[ ! -f $out/boot-$boot/started ]]; then
            say "boot $boot: the daemon was never started"
            status=1
        else
            delay_ms=$((RANDOM % 12000))
            sleep "$((delay_ms / 1000)).$(printf %03d $((delay_ms % 1000)))"
            kill -KILL "$(cat "$work/qemu.pid")" 2> /dev/null || true
            echo "$delay_ms" > "$out/boot-$boot/cut-after-ms"
        fi
    fi
    wait "$guest" || true
    cp "$out/console.log" "$out/boot-$boot/console.log" 2> /dev/null || true
    say "boot $boot ($mode, uplink $uplink$([[ -f $out/boot-$boot/cut-after-ms ]] && echo ", cut $(cat "$out/boot-$boot/cut-after-ms") ms after the daemon's start")): $((SECONDS - started)) s"
    ((status)) && break
done

kill -TERM "$jhe_pid"
wait "$jhe_pid" || true
jhe_pid=
python3 "$here/check.py" "$out" "$work/ledger.json" "$cycles" || status=1
if ((status)); then
    for log in guest.log daemon.log; do
        last=$(ls -d "$out"/boot-* | sort -t- -k2 -n | tail -1)
        [[ -f $last/$log ]] && { echo "---- $(basename "$last")/$log (last 40 lines)"; tail -n 40 "$last/$log"; }
    done
    EGW_KEEP=1
fi
say "seed $seed; total $((SECONDS - started)) s"
exit "$status"
