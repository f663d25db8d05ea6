#!/bin/bash
# The programs the JHE, BlueZ, systemd and power-cut tiers run, gathered in one directory:
# - edge-gateway as the .deb ships it: release, static Swift runtime, built in .build-ship (the
#   scratch path of make ship and the benchmarks), so CI compiles the gateway in release once;
# - edge-gateway-lab and edge-gateway-peripheral from the debug build make test leaves in .build:
#   they stand in for JHE and the straps, are never shipped, and a release build of them (NIO and
#   Hummingbird optimised) would cost CI about 9 minutes on 2 cores for simulators that run at
#   tens of samples a second.
# Usage: scripts/tier-binaries.sh DIR   (creates DIR; prints the build steps on stderr)
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: scripts/tier-binaries.sh DIR" >&2; exit 2; }
cd "$(dirname "$0")/.."
dir=$1
mkdir -p "$dir"
ship=(-c release --static-swift-stdlib --scratch-path .build-ship)
swift build "${ship[@]}" --product edge-gateway >&2
cp "$(swift build "${ship[@]}" --show-bin-path)/edge-gateway" "$dir/"
for product in edge-gateway-lab edge-gateway-peripheral; do
    swift build --product "$product" >&2
    cp "$(swift build --show-bin-path)/$product" "$dir/"
done
