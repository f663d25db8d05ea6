#!/usr/bin/env bash
# Builds the edge-gateway .deb (`make deb` for this machine, `make deb-arm64` for the Pi).
#
# Usage: scripts/build-deb.sh [--binary FILE] [--output DIR] [--config-example FILE]
#                             [--architecture ARCH [--sysroot DIR]]
#   --binary FILE          package this edge-gateway instead of building one; it must not need
#                          the Swift runtime libraries (build with --static-swift-stdlib)
#   --output DIR           where the .deb goes (default: .build-ship/deb)
#   --config-example FILE  shipped as the conffile /etc/edge-gateway/gateway.toml
#                          (default: deploy/gateway.toml.example)
#   --architecture ARCH    the package's Debian architecture, amd64 or arm64 (default: this
#                          machine's, dpkg --print-architecture); the binary's ELF machine must
#                          match it. Another machine's binary needs --binary, that machine's
#                          binutils (binutils-aarch64-linux-gnu for arm64: strip and the objdump
#                          dpkg-shlibdeps calls) and, for its --version, scripts/arm64/run (qemu).
#   --sysroot DIR          the ARCH system the binary was linked against (scripts/arm64/lib.sh's
#                          bookworm sysroot): Depends: come from its libraries and from the
#                          shlibs and symbols files in DIR/var/lib/dpkg/info, not from this
#                          machine's packages. Needed with a foreign --architecture.
#
# Without --binary it runs `swift build -c release --static-swift-stdlib --product edge-gateway`
# in .build-ship, the scratch path make ship, the benchmarks and the test tiers share (slow the
# first time: everything is built in release mode). The binary is stripped. The
# Swift runtime is inside it; libdbus-1, libsqlite3 and glibc stay shared, and dpkg-shlibdeps
# turns what the binary really links into Depends:. The file layout is deploy/install.sh's.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
binary=
output="$repo/.build-ship/deb"
config_example="$repo/deploy/gateway.toml.example"
host_architecture=$(dpkg --print-architecture)
architecture=$host_architecture
sysroot=

fail() { echo "build-deb: $*" >&2; exit 1; }

while [[ $# -gt 0 ]]; do
  [[ $# -ge 2 ]] || fail "$1 needs a value (see the usage at the top of $0)"
  case "$1" in
    --binary) binary=$2 ;;
    --output) output=$2 ;;
    --config-example) config_example=$2 ;;
    --architecture) architecture=$2 ;;
    --sysroot) sysroot=$2 ;;
    *) fail "unknown option $1 (see the usage at the top of $0)" ;;
  esac
  shift 2
done

# The ELF machine `readelf -h` names for each architecture the gateway is packaged for.
case "$architecture" in
  amd64) machine="Advanced Micro Devices X86-64" ;;
  arm64) machine=AArch64 ;;
  *) fail "cannot package for architecture '$architecture' (amd64 or arm64)" ;;
esac
# Another architecture's binary needs that architecture's strip and objdump (dpkg-shlibdeps runs
# <triplet>-objdump when DEB_HOST_ARCH differs from this machine's), from binutils-<triplet>.
binutils=binutils tool_prefix=
if [[ "$architecture" != "$host_architecture" ]]; then
  triplet=$(dpkg-architecture -a"$architecture" -qDEB_HOST_GNU_TYPE 2>/dev/null) \
    || fail "dpkg-architecture does not know $architecture (Debian package dpkg-dev)"
  tool_prefix="$triplet-" binutils="binutils-${triplet//_/-}"
  [[ -n "$binary" ]] || fail "a package for $architecture needs --binary (make deb-arm64 builds one)"
  [[ -n "$sysroot" ]] || fail "a package for $architecture needs --sysroot, the $architecture system it was linked against"
fi
for tool in dpkg-deb dpkg-shlibdeps readelf "${tool_prefix}strip" "${tool_prefix}objdump"; do
  command -v "$tool" >/dev/null || fail "$tool is missing (Debian packages dpkg-dev and $binutils)"
done
[[ -z "$sysroot" || -d "$sysroot/var/lib/dpkg/info" ]] \
  || fail "--sysroot $sysroot has no var/lib/dpkg/info (the shlibs and symbols files Depends: come from)"

if [[ -z "$binary" ]]; then
  (cd "$repo" && swift build -c release --static-swift-stdlib --product edge-gateway --scratch-path .build-ship)
  binary="$repo/.build-ship/release/edge-gateway"
fi
[[ -x "$binary" ]] || fail "no executable at $binary"
binary_machine=$(readelf -h "$binary" 2>/dev/null | sed -n 's/^ *Machine: *//p') || binary_machine=
[[ "$binary_machine" == "$machine" ]] \
  || fail "$binary is built for ${binary_machine:-no machine readelf knows (not an ELF file?)}, not for $architecture ($machine): build it for $architecture, or give the matching --architecture"
if "${tool_prefix}objdump" -p "$binary" | grep -E 'NEEDED +libswift|NEEDED +libFoundation' >&2; then
  fail "$binary needs the Swift runtime libraries above: build it with --static-swift-stdlib"
fi

# The version is the binary's own answer, so it cannot drift from what is packaged; an arm64
# binary answers under qemu.
run=("$binary")
if [[ "$architecture" != "$host_architecture" ]]; then
  [[ "$architecture" == arm64 ]] || fail "cannot run a $architecture binary here to ask its --version"
  run=("$repo/scripts/arm64/run" "$binary")
fi
upstream=$("${run[@]}" --version) || fail "$binary --version failed"
[[ "$upstream" =~ ^[0-9][0-9A-Za-z.+~-]*$ ]] || fail "'$binary --version' printed '$upstream', not a version"
version=$upstream
if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
  # Commit count then hash: later commits sort later, and the hash names the source.
  version="$upstream+git$(git -C "$repo" rev-list --count HEAD).$(git -C "$repo" rev-parse --short=7 HEAD)"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"
"${tool_prefix}strip" --strip-unneeded -o "$work/edge-gateway" "$binary"
"$repo/deploy/install.sh" --destdir "$root" --binary "$work/edge-gateway" --config-example "$config_example" >/dev/null

doc="$root/usr/share/doc/edge-gateway"
cat > "$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: edge-gateway

Files: *
License: Apache-2.0
 The full text is in /usr/share/doc/edge-gateway/LICENSE and /usr/share/common-licenses/Apache-2.0.
 The binary also contains, statically linked, the Swift runtime and Foundation (Apache-2.0
 with the Runtime Library Exception) and the Swift packages named in Package.swift and their
 dependencies, each under its own licence (Apache-2.0). TLS and HTTP come from the system's
 libcurl and OpenSSL, which are linked dynamically and not shipped here.
EOF
chmod 0644 "$doc/copyright"

# dpkg-shlibdeps wants a debian/control naming the package.
mkdir -p "$work/source/debian"
printf 'Source: edge-gateway\n\nPackage: edge-gateway\nArchitecture: any\n' > "$work/source/debian/control"
shlibdeps=(dpkg-shlibdeps -O -e "$root/usr/bin/edge-gateway")
if [[ -n "$sysroot" ]]; then
  # The libraries are the sysroot's, found through -l; dpkg-shlibdeps takes a library no
  # installed package owns for one of the packages being built, and reads their shlibs and
  # symbols from debian/*/DEBIAN/: there go the sysroot's, so Depends: name the packages and
  # versions of the system the binary was linked against (bookworm's: libc6 (>= 2.3x), libcurl4).
  for file in "$sysroot"/var/lib/dpkg/info/*.shlibs "$sysroot"/var/lib/dpkg/info/*.symbols; do
    [[ -f "$file" ]] || continue
    library_package=$(basename "${file%.*}")
    mkdir -p "$work/source/debian/$library_package/DEBIAN"
    cp "$file" "$work/source/debian/$library_package/DEBIAN/${file##*.}"
  done
  multiarch=$(dpkg-architecture -a"$architecture" -qDEB_HOST_MULTIARCH 2>/dev/null)
  shlibdeps=(env DEB_HOST_ARCH="$architecture" "${shlibdeps[@]}" -l"$sysroot/usr/lib/$multiarch" -l"$sysroot/lib/$multiarch")
fi
shlibs=$(cd "$work/source" && "${shlibdeps[@]}" 2>"$work/shlibdeps.log") \
  || { cat "$work/shlibdeps.log" >&2; fail "dpkg-shlibdeps could not work out the shared-library dependencies"; }
depends="${shlibs#shlibs:Depends=}, bluez, dbus, systemd, procps"

install -d -m 0755 "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<EOF
Package: edge-gateway
Version: $version
Architecture: $architecture
Maintainer: ${DEB_MAINTAINER:-edge-gateway developers <edge-gateway@localhost>}
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Section: net
Priority: optional
Description: edge gateway for Bluetooth LE heart-rate straps
 Holds connections to standard Heart Rate Service straps through BlueZ, keeps
 every sample in a durable local queue through outages and power loss, and
 delivers the samples to JupyterHealth Exchange as Open mHealth heart-rate
 data points in FHIR R5 Observations. Runs as the hardened systemd service
 edge-gateway.service under its own user; operated with the edge-gateway
 command.
EOF
echo /etc/edge-gateway/gateway.toml > "$root/DEBIAN/conffiles"
install -m 0755 "$repo/deploy/debian/postinst" "$repo/deploy/debian/prerm" "$repo/deploy/debian/postrm" "$root/DEBIAN/"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

mkdir -p "$output"
package="$output/edge-gateway_${version}_${architecture}.deb"
dpkg-deb --build --root-owner-group "$root" "$package" >/dev/null
echo "$package"
