#!/usr/bin/env bash
# Runs a command under the seccomp part of deploy/edge-gateway.service (system-call allow list,
# MemoryDenyWriteExecute, RestrictAddressFamilies, native ABI only), for hosts where systemd is
# not PID 1 and `systemd-run -p ...` is unavailable. Blocked calls fail with EPERM (the unit's
# SystemCallErrorNumber=EPERM); run it under `strace -f -e trace=all -Z` to see which.
#
# Usage: deploy/sandbox-check/sandbox-run.sh PROGRAM [ARGUMENT ...]
# The allow list follows the unit's lines: @system-service, minus @privileged and @resources,
# plus clock_adjtime and setpriority, expanded with `systemd-analyze syscall-filter`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[[ $# -ge 1 ]] || { echo "usage: $0 PROGRAM [ARGUMENT ...]" >&2; exit 64; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

systemd-analyze syscall-filter --no-pager > "$work/groups.txt" 2>/dev/null
python3 - "$work/groups.txt" > "$work/allowed-syscalls.h" <<'PY'
import sys
groups, current = {}, None
for line in open(sys.argv[1]):
    text = line.strip()
    if not text or text.startswith("#"):
        continue
    if not line.startswith(" "):
        current = groups.setdefault(text, [])
    elif current is not None:
        current.append(text)

def expand(name):
    if not name.startswith("@"):
        return {name}
    return set().union(*(expand(member) for member in groups[name])) if groups[name] else set()

allowed = (expand("@system-service") - expand("@privileged") - expand("@resources")) | {"clock_adjtime", "setpriority"}
for name in sorted(allowed):
    print(f"#ifdef __NR_{name}\n__NR_{name},\n#endif")
PY
"${CC:-cc}" -O1 -I"$work" -o "$work/seccomp-launcher" "$here/seccomp-launcher.c"
program=$(command -v "$1") || { echo "sandbox-run: no program $1" >&2; exit 127; }
shift
"$work/seccomp-launcher" "$program" "$@"
