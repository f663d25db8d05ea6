# Shared by the arm64 scripts (make deb-arm64, make test-arm64, make test-swift62,
# scripts/arm64/run): the Debian sid root that holds Swift 6.2.3 (the only Swift here that
# targets arm64), the arm64 sysroot the Pi's binary is linked against (Debian bookworm: the
# oldest glibc Raspberry Pi OS ships), the Swift SDK bundle that joins them, and the arm64
# bookworm and trixie roots the .deb is installed into. Everything is made the first time and
# kept in one cache folder ($EGW_ARM64_CACHE, default ~/.cache/edge-gateway-arm64); a step that
# finished leaves a stamp, so a step cut short is redone, not trusted. Source it; the caller
# sets `set -euo pipefail`.

arm64_cache=${EGW_ARM64_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/edge-gateway-arm64}
arm64_mirror=${EGW_DEBIAN_MIRROR:-http://deb.debian.org/debian}
arm64_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
arm64_repo=$(cd "$arm64_here/../.." && pwd)

# The sid root: Swift 6.2.3 for amd64 (a cross compiler with the AArch64 backend and ld.lld) and
# what the test suite needs at run time, so the same root also runs the suite with 6.2.3.
arm64_toolchain=$arm64_cache/sid
arm64_toolchain_packages=(
    swiftlang git ca-certificates make pkg-config file binutils
    libstdc++-16-dev libdbus-1-dev libsqlite3-dev libcurl4-openssl-dev libssl-dev curl
    dbus-daemon python3 python3-dbus python3-gi python3-jsonschema libglib2.0-bin systemd procps dpkg-dev
    prometheus
)

arm64_say() { echo "arm64: $*" >&2; }
arm64_fail() { echo "arm64: $*" >&2; exit 1; }

# Root is needed for debootstrap and chroot; the message says so instead of a chroot error.
arm64_need_root() {
    [[ $(id -u) -eq 0 ]] || arm64_fail "$1 needs root (debootstrap, chroot and bind mounts): run it as root or with sudo"
}

# Installs the host's Debian packages in "$@" that are missing, naming them.
arm64_host_packages() {
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    ((${#missing[@]})) || return 0
    arm64_need_root "installing ${missing[*]}"
    arm64_say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || arm64_fail "could not install ${missing[*]} with apt-get"
}

# apt options for a Debian snapshot whose Release file may be past its Valid-Until.
arm64_apt_options=(-o Acquire::Check-Valid-Until=false -o APT::Install-Recommends=false -o Dpkg::Use-Pty=0)

# Runs "$@" in the root $1 with /proc, /dev, the package mirror and the checkout mounted, in a
# mount namespace of its own so nothing stays mounted when it ends.
arm64_in_root() {
    local root=$1; shift
    unshare --mount --propagation private bash -euo pipefail -c '
        root=$1; repo=$2; shift 2
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        mkdir -p "$root/tmp" "$root$repo"
        mount --bind "$repo" "$root$repo"
        if [[ -d /opt/swift-packages ]]; then
            mkdir -p "$root/opt/swift-packages"
            mount --bind /opt/swift-packages "$root/opt/swift-packages"
        fi
        # Host folders the caller lists in ARM64_BINDS (colon-separated) appear at the same
        # path inside, so paths written on either side (the SDK bundle names the sysroot in
        # the cache) mean the same thing.
        IFS=: read -r -a binds <<<"${ARM64_BINDS:-}"
        for bind in "${binds[@]}"; do
            [[ -n $bind ]] || continue
            mkdir -p "$root$bind"
            mount --bind "$bind" "$root$bind"
        done
        [[ -f /etc/gitconfig ]] && cp /etc/gitconfig "$root/etc/gitconfig"
        cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
        exec chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
            LANG=C.UTF-8 TERM=dumb "$@"
    ' arm64-in-root "$root" "$arm64_repo" "$@"
}

# The sid root with Swift 6.2.3 and the suite's run-time packages.
arm64_ensure_toolchain() {
    local root=$arm64_toolchain
    if [[ -f $root/.egw-ready ]]; then
        # A root made before a package joined the list gets it now.
        local missing=() package
        for package in "${arm64_toolchain_packages[@]}"; do
            arm64_in_root "$root" dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
        done
        ((${#missing[@]} == 0)) && return 0
        arm64_say "installing ${missing[*]} in the sid root"
        arm64_in_root "$root" apt-get "${arm64_apt_options[@]}" update -qq
        arm64_in_root "$root" env DEBIAN_FRONTEND=noninteractive apt-get "${arm64_apt_options[@]}" install -y -qq "${missing[@]}" \
            >"$arm64_cache/sid-packages.log" 2>&1 \
            || { tail -n 20 "$arm64_cache/sid-packages.log" >&2; arm64_fail "apt-get install ${missing[*]} in the sid root failed"; }
        return 0
    fi
    arm64_need_root "making the Swift 6.2.3 root ($root)"
    arm64_host_packages debootstrap ca-certificates
    arm64_say "making the Debian sid root with Swift 6.2.3 in $root (about 3 minutes, 3.5 GB)"
    rm -rf "$root"; mkdir -p "$root"
    debootstrap --variant=minbase --include=ca-certificates sid "$root" "$arm64_mirror" >"$arm64_cache/sid-debootstrap.log" 2>&1 \
        || { tail -n 20 "$arm64_cache/sid-debootstrap.log" >&2; arm64_fail "debootstrap of Debian sid from $arm64_mirror failed (log: $arm64_cache/sid-debootstrap.log)"; }
    arm64_in_root "$root" apt-get "${arm64_apt_options[@]}" update -qq
    arm64_in_root "$root" env DEBIAN_FRONTEND=noninteractive apt-get "${arm64_apt_options[@]}" install -y -qq \
        "${arm64_toolchain_packages[@]}" >"$arm64_cache/sid-packages.log" 2>&1 \
        || { tail -n 20 "$arm64_cache/sid-packages.log" >&2; arm64_fail "apt-get install ${arm64_toolchain_packages[*]} in the sid root failed"; }
    arm64_in_root "$root" swift --version 2>&1 | grep -q 'Swift version 6\.2' \
        || arm64_fail "the sid root's swift is not 6.2: $(arm64_in_root "$root" swift --version 2>&1 | head -1)"
    # Debian ships _Testing_Foundation as a module interface only, yet every test link asks for
    # -l_Testing_Foundation: an empty archive answers it (nothing in it is used).
    ar rc "$root/usr/libexec/swift/lib/swift/linux/lib_Testing_Foundation.a"
    touch "$root/.egw-ready"
}

# ---- The arm64 sysroots (bookworm's for what ships, trixie's for the tests) and the Swift SDKs
# ---- that join them to the sid root ----------------------------------------------------------

# The Pi's libraries: Debian bookworm's arm64 packages (glibc 2.36, the oldest Raspberry Pi OS
# still ships), so the one binary runs on bookworm and on trixie. The variables name bookworm's
# sysroot and SDK, what the shipped binary is built with; the functions take a release, because
# the tests need trixie's (see arm64_ensure_sdk).
arm64_sysroot=$arm64_cache/sysroot-bookworm
arm64_sysroot_packages=(libc6-dev libdbus-1-dev libsqlite3-dev libcurl4-openssl-dev libssl-dev)
arm64_sdk_name=edge-gateway-bookworm-arm64
arm64_sdk_bundle=$arm64_cache/sdk/$arm64_sdk_name.artifactbundle
arm64_sdk_dir=$arm64_sdk_bundle/$arm64_sdk_name
arm64_triple=aarch64-unknown-linux-gnu

# The GCC whose libgcc and libstdc++ each release builds against (what clang links C++ with).
arm64_release_gcc() {
    case $1 in
        bookworm) echo 12 ;;
        trixie) echo 14 ;;
        *) arm64_fail "no arm64 sysroot for Debian '$1' (bookworm or trixie)" ;;
    esac
}

# apt-get for Debian release $1's arm64 packages with a configuration of its own (lists, .deb
# cache and an empty dpkg status under $arm64_cache/apt/RELEASE): the host's apt state and dpkg
# architectures stay untouched, and nothing is ever installed, only downloaded. (apt's _apt
# user cannot enter root's cache folder: downloads run as root, as they would with a warning.)
arm64_apt() {
    local release=$1 tool=apt-get; shift
    # apt-cache for queries (policy), with the same configuration.
    if [[ ${1:-} == --cache ]]; then tool=apt-cache; shift; fi
    local dir=$arm64_cache/apt/$release
    mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/sources.list.d" "$dir/preferences.d"
    [[ -f $dir/status ]] || : >"$dir/status"
    echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $arm64_mirror $release main" >"$dir/sources.list"
    "$tool" "${arm64_apt_options[@]}" -q \
        -o Dir::State="$dir" -o Dir::State::Lists="$dir/lists" -o Dir::State::status="$dir/status" \
        -o Dir::Cache="$dir" -o Dir::Cache::archives="$dir/archives" \
        -o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts="$dir/sources.list.d" \
        -o Dir::Etc::Preferences="$dir/preferences" -o Dir::Etc::PreferencesParts="$dir/preferences.d" \
        -o APT::Architecture=arm64 -o APT::Architectures=arm64 -o pkgCacheGen::Essential=none \
        -o Acquire::Languages=none -o APT::Sandbox::User=root "$@"
}

# bookworm's .debs still ship /bin, /sbin and /lib (bookworm merged /usr at install time, not in
# its packages): fold them into /usr and leave the links a merged system has, so either spelling
# works (libc.so's linker script names /lib/aarch64-linux-gnu/libc.so.6, lld reads it inside
# the sysroot). Absolute symlinks (the -dev packages' libfoo.so -> /lib/…/libfoo.so.N) would
# point into the machine that reads them, not into the sysroot: they become relative.
arm64_merge_usr() {
    local root=$1 dir link target
    for dir in bin sbin lib; do
        mkdir -p "$root/usr/$dir"
        if [[ -d $root/$dir && ! -L $root/$dir ]]; then
            cp -a --no-clobber "$root/$dir/." "$root/usr/$dir/"
            rm -rf "${root:?}/$dir"
        fi
        [[ -L $root/$dir ]] || ln -s "usr/$dir" "$root/$dir"
    done
    while IFS= read -r -d '' link; do
        target=$(readlink "$link")
        case $target in /bin/* | /sbin/* | /lib/*) target=/usr$target ;; esac
        ln -sfn "$(realpath -s -m --relative-to="$(dirname "$link")" "$root$target")" "$link"
    done < <(find "$root" -type l -lname '/*' -print0)
}

# An arm64 sysroot in $arm64_cache/sysroot-RELEASE ($1, default bookworm): that Debian release's
# arm64 libraries and headers (with each package's shlibs and symbols files under
# var/lib/dpkg/info, which dpkg-shlibdeps reads to write Depends:), and the arm64 Swift runtime
# and modules from sid's swiftlang of exactly the sid root's version (modules only load in the
# compiler that built them). Its stamp holds that version and the package list, so a sid root
# remade with a newer Swift, or a package added, gets a new sysroot too.
arm64_ensure_sysroot() {
    local release=${1:-bookworm}
    local root=$arm64_cache/sysroot-$release version gcc
    gcc=$(arm64_release_gcc "$release")
    local packages=("${arm64_sysroot_packages[@]}" "libgcc-$gcc-dev" "libstdc++-$gcc-dev")
    arm64_ensure_toolchain
    version=$(dpkg-query --admindir="$arm64_toolchain/var/lib/dpkg" -W -f '${Version}' swiftlang) \
        || arm64_fail "the sid root $arm64_toolchain has no swiftlang: remove it and run again"
    local stamp="$version ${packages[*]}"
    [[ -f $root/.egw-ready && $(cat "$root/.egw-ready") == "$stamp" ]] && return 0
    arm64_need_root "making the arm64 sysroot ($root)"
    arm64_host_packages debian-archive-keyring
    local log=$arm64_cache/sysroot-$release.log
    arm64_say "making the arm64 $release sysroot with sid's arm64 Swift $version runtime in $root (about 1 minute, 550 MB to download)"
    rm -rf "$root"; mkdir -p "$root/var/lib/dpkg/info"
    : >"$log"

    # The release's libraries: the closure apt works out for the -dev packages, read from a dry
    # run (apt names each package's exact version and architecture), then downloaded.
    arm64_apt "$release" update >>"$log" 2>&1 \
        || arm64_fail "apt-get update of Debian $release arm64 from $arm64_mirror failed (log: $log)"
    local listing name pkg_version arch deb control file
    listing=$(arm64_apt "$release" install -s "${packages[@]}" 2>>"$log" \
        | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) [^[]*\[\([a-z0-9]*\)\]).*/\1 \2 \3/p')
    [[ -n $listing ]] || arm64_fail "apt-get could not resolve ${packages[*]} for $release arm64 (log: $log)"
    arm64_apt "$release" install -y --download-only "${packages[@]}" >>"$log" 2>&1 \
        || arm64_fail "downloading $release arm64 ${packages[*]} failed (log: $log)"
    control=$(mktemp -d)
    while read -r name pkg_version arch; do
        deb=$arm64_cache/apt/$release/archives/${name}_${pkg_version//:/%3a}_$arch.deb
        dpkg-deb -x "$deb" "$root" || arm64_fail "could not unpack $deb"
        rm -rf "$control"; dpkg-deb -e "$deb" "$control"
        for file in shlibs symbols; do
            if [[ -f $control/$file ]]; then cp "$control/$file" "$root/var/lib/dpkg/info/$name.$file"; fi
        done
        echo "$name $pkg_version $arch" >>"$root/var/lib/dpkg/egw-packages"
    done <<<"$listing"
    rm -rf "$control"
    arm64_merge_usr "$root"

    # The arm64 Swift runtime: sid's swiftlang and libswiftlang for arm64, the same version as
    # the sid root's compiler. Only what a cross build reads is kept: the modules and runtime
    # (lib/swift), the static runtime (lib/swift_static) and clang's headers they point at;
    # not embedded Swift (520 MB), the compiler's own plugins or SwiftPM's manifest libraries.
    arm64_apt sid update >>"$log" 2>&1 \
        || arm64_fail "apt-get update of Debian sid arm64 from $arm64_mirror failed (log: $log)"
    local archives=$arm64_cache/apt/sid/archives package extract
    for package in swiftlang libswiftlang; do
        deb=$archives/${package}_${version//:/%3a}_arm64.deb
        [[ -f $deb ]] && dpkg-deb --info "$deb" >/dev/null 2>&1 && continue
        (cd "$archives" && arm64_apt sid download "$package=$version") >>"$log" 2>&1 \
            || arm64_fail "sid has no arm64 $package $version (the sid root's version; sid has: $(arm64_apt sid --cache policy "$package" 2>/dev/null | sed -n 's/ *Candidate: //p')): remove $arm64_toolchain and run again to remake both from today's sid (log: $log)"
    done
    extract=$(mktemp -d)
    dpkg-deb --fsys-tarfile "$archives/swiftlang_${version//:/%3a}_arm64.deb" \
        | tar -x -C "$extract" --exclude=./usr/libexec/swift/lib/swift/embedded --exclude=./usr/libexec/swift/lib/swift/host \
            --exclude=./usr/libexec/swift/lib/swift/pm --exclude=./usr/libexec/swift/lib/swift/FrameworkABIBaseline \
            ./usr/libexec/swift/lib/swift ./usr/libexec/swift/lib/swift_static ./usr/libexec/swift/lib/clang \
        || arm64_fail "could not unpack the Swift runtime from $archives/swiftlang_${version//:/%3a}_arm64.deb (delete it to download it again)"
    dpkg-deb --fsys-tarfile "$archives/libswiftlang_${version//:/%3a}_arm64.deb" \
        | tar -x -C "$extract" --exclude=./usr/libexec/swift/lib/swift/host ./usr/libexec/swift/lib/swift \
        || arm64_fail "could not unpack the Swift runtime from $archives/libswiftlang_${version//:/%3a}_arm64.deb (delete it to download it again)"
    mkdir -p "$root/usr/libexec/swift"
    mv "$extract/usr/libexec/swift/lib" "$root/usr/libexec/swift/lib"
    rm -rf "$extract"
    ln -s ../libexec/swift/lib/swift "$root/usr/lib/swift"
    ln -s ../libexec/swift/lib/swift_static "$root/usr/lib/swift_static"
    # sid ships the _Testing_Foundation module as an interface only, yet test links ask for
    # -l_Testing_Foundation: an empty archive satisfies the linker (nothing in it is needed).
    local dir
    for dir in swift swift_static; do
        [[ -e $root/usr/lib/$dir/linux/lib_Testing_Foundation.a ]] || printf '!<arch>\n' >"$root/usr/lib/$dir/linux/lib_Testing_Foundation.a"
    done

    local needed
    for needed in usr/lib/swift_static/linux/aarch64/swiftrt.o usr/lib/swift_static/linux/static-stdlib-args.lnk \
        usr/lib/swift/linux/libswiftCore.so usr/lib/aarch64-linux-gnu/libc.so.6 usr/lib/aarch64-linux-gnu/pkgconfig/dbus-1.pc \
        usr/lib/aarch64-linux-gnu/pkgconfig/libcurl.pc usr/lib/aarch64-linux-gnu/pkgconfig/sqlite3.pc; do
        [[ -e $root/$needed ]] || arm64_fail "the sysroot lacks $needed after unpacking (log: $log)"
    done
    echo "swiftlang $version arm64" >>"$root/var/lib/dpkg/egw-packages"
    echo "$stamp" >"$root/.egw-ready"
}

# Runs glibc-compat-test.c in the sid root (x86-64, glibc >= 2.38): the compat functions against
# glibc's own. Prints its "N passed, N failed" line; fails naming the log when any differ.
arm64_test_glibc_compat() {
    arm64_ensure_toolchain
    local log=$arm64_cache/glibc-compat-test.log
    arm64_in_root "$arm64_toolchain" bash -euo pipefail -c '
        cd "$1"; work=$(mktemp -d); trap "rm -rf $work" EXIT
        cc -std=gnu11 -O1 -Wall -Wextra -Werror -DEGW_COMPAT_PREFIX glibc-compat.c glibc-compat-test.c -o "$work/test"
        "$work/test"' glibc-compat-test "$arm64_here" >"$log" 2>&1 \
        || { tail -n 20 "$log" >&2; arm64_fail "scripts/arm64/glibc-compat.c differs from glibc (log: $log)"; }
    tail -n 1 "$log" >&2
}

# The Swift SDK bundle $arm64_cache/sdk/edge-gateway-RELEASE-arm64.artifactbundle ($1, default
# bookworm; swift build --swift-sdks-path "$arm64_cache/sdk" --swift-sdk edge-gateway-RELEASE-arm64):
# target aarch64-unknown-linux-gnu with that release's sysroot and Swift runtime, lld, and, when
# the release's glibc lacks functions the static runtime calls (bookworm's does), glibc-compat.o
# in every link. Bookworm's builds what ships (static runtime). The tests need trixie's: XCTest
# and Swift Testing come only as shared libraries, and sid's shared runtime needs glibc 2.38
# (fmod@GLIBC_2.38, the __isoc23_ functions as versioned symbols, which no object of ours can
# stand in for). Its paths are absolute paths in the cache, which arm64_in_root shows at the same
# place when ARM64_BINDS names the cache. Remade when glibc-compat.c, its test, glibc-gap, this
# function or the sysroot change (the stamp holds their hash).
arm64_ensure_sdk() {
    local release=${1:-bookworm}
    arm64_ensure_sysroot "$release"
    local sysroot=$arm64_cache/sysroot-$release name=edge-gateway-$release-arm64
    local bundle=$arm64_cache/sdk/$name.artifactbundle
    local dir=$bundle/$name inputs
    inputs=$({ cat "$arm64_here/glibc-compat.c" "$arm64_here/glibc-compat-test.c" "$arm64_here/glibc-gap" \
        "$sysroot/var/lib/dpkg/egw-packages"; declare -f arm64_ensure_sdk; } | sha256sum | cut -d' ' -f1)
    [[ -f $bundle/.egw-ready && $(cat "$bundle/.egw-ready") == "$inputs" ]] && return 0
    arm64_need_root "making the arm64 Swift SDK ($bundle)"
    arm64_say "making the Swift SDK $name in $bundle"
    rm -rf "$bundle"; mkdir -p "$dir"

    # What the static runtime needs from a glibc newer than the release's, measured, not
    # assumed: glibc-compat.c must define every one of them (and passes its test against glibc).
    local gap linker=
    gap=$(ARM64_BINDS=$arm64_cache arm64_in_root "$arm64_toolchain" "$arm64_here/glibc-gap" "$sysroot" 2>/dev/null) \
        || arm64_fail "scripts/arm64/glibc-gap could not read the runtime's symbols in $sysroot"
    if [[ -n $gap ]]; then
        arm64_test_glibc_compat
        local object=$dir/glibc-compat.o defined missing
        ARM64_BINDS=$arm64_cache arm64_in_root "$arm64_toolchain" /usr/libexec/swift/bin/clang --target=$arm64_triple \
            --sysroot="$sysroot" -O2 -fPIC -Wall -Wextra -Werror -c "$arm64_here/glibc-compat.c" -o "$object" \
            || arm64_fail "could not compile scripts/arm64/glibc-compat.c for $arm64_triple"
        defined=$(ARM64_BINDS=$arm64_cache arm64_in_root "$arm64_toolchain" /usr/libexec/swift/bin/llvm-objdump -t "$object" \
            | awk '$0 !~ /\*UND\*/ && $2 == "g" { print $NF }')
        missing=$(comm -23 <(sort <<<"$gap") <(sort <<<"$defined") | tr '\n' ' ')
        [[ -z ${missing// /} ]] || arm64_fail "the static Swift runtime needs ${missing% }, which $release's glibc lacks and scripts/arm64/glibc-compat.c does not define"
        # (SwiftPM refuses a toolset whose linker entry has no options: none without a gap.)
        linker=$',\n  "linker": { "extraCLIOptions": ["'"$object"'"] }'
    fi

    cat >"$bundle/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "$name": {
      "type": "swiftSDK",
      "version": "$(sed -n 's/^swiftlang \([^ ]*\) .*/\1/p' "$sysroot/var/lib/dpkg/egw-packages")",
      "variants": [{ "path": "$name" }]
    }
  }
}
JSON
    cat >"$dir/swift-sdk.json" <<JSON
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "$arm64_triple": {
      "sdkRootPath": "$sysroot",
      "swiftResourcesPath": "$sysroot/usr/lib/swift",
      "swiftStaticResourcesPath": "$sysroot/usr/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
JSON
    cat >"$dir/toolset.json" <<JSON
{
  "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] }$linker
}
JSON
    echo "$inputs" >"$bundle/.egw-ready"
}

# ---- The arm64 roots the .deb is installed into (make test-arm64, scripts/arm64/install-check) --

# arm64 programs (the roots' dpkg, maintainer scripts, the gateway) run on this x86-64 machine
# through the kernel's binfmt_misc, which hands every AArch64 ELF file to qemu-aarch64-static.
# The entry must carry the F flag (Debian's qemu-user-static registers it so): the kernel opens
# the interpreter once, at registration, so it also runs inside a chroot that has no qemu.
arm64_ensure_binfmt() {
    local entry=/proc/sys/fs/binfmt_misc/qemu-aarch64
    arm64_binfmt_ok() { [[ -r $entry && $(head -n 1 "$entry") == enabled ]] && grep -q '^flags:.*F' "$entry"; }
    arm64_binfmt_ok && return 0
    arm64_need_root "registering qemu-aarch64 with binfmt_misc"
    arm64_host_packages qemu-user-static binfmt-support
    if ! mountpoint -q /proc/sys/fs/binfmt_misc; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null \
            || arm64_fail "binfmt_misc is not mounted and cannot be (mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc failed): in a container, run that on the host (or start the container with --privileged), then update-binfmts --enable qemu-aarch64"
    fi
    [[ -e $entry ]] || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    [[ -e $entry && $(head -n 1 "$entry") != enabled ]] && { echo 1 >"$entry" 2>/dev/null || true; }
    [[ -e $entry ]] && ! grep -q '^flags:.*F' "$entry" \
        && arm64_fail "$entry is registered without the F flag, so arm64 programs cannot run inside a chroot: echo -1 >$entry; update-binfmts --enable qemu-aarch64 (Debian's qemu-user-static registers it with F)"
    arm64_binfmt_ok || arm64_fail "could not enable qemu-aarch64 in binfmt_misc ($entry: $(head -n 1 "$entry" 2>/dev/null || echo missing)): update-binfmts --enable qemu-aarch64 (Debian packages qemu-user-static and binfmt-support)"
}

# What the arm64 Raspberry Pi OS stand-ins hold besides minbase: the .deb's Depends: as
# build-deb.sh writes them (bookworm's libraries, bluez, dbus, systemd, procps), so that
# `dpkg -i` of the .deb resolves them as on a Pi, plus nothing else. trixie renamed libcurl4 to
# libcurl4t64 (it Provides libcurl4, which is what the .deb names). Changing the list remakes
# the roots (their stamp holds it).
arm64_target_packages() {
    local curl=libcurl4
    [[ $1 == bookworm ]] || curl=libcurl4t64
    echo "$curl libdbus-1-3 libsqlite3-0 libstdc++6 libgcc-s1 bluez dbus systemd procps"
}

# The arm64 Debian root for release $1 (bookworm or trixie) in $arm64_cache/root-$1, made once
# with mmdebstrap: --variant=minbase (the Essential and Priority: required packages, as
# debootstrap's minbase) plus arm64_target_packages, every maintainer script run under qemu-user
# (binfmt). mmdebstrap rather than debootstrap for time: it lets apt resolve and fetch
# everything at once and dpkg install in two calls, where debootstrap unpacks and configures
# in many rounds. Measured on 2 cores shared with Swift builds (load 4 to 8), wall (CPU):
# debootstrap 273 s (100 s) for bookworm and 585 s (224 s) for trixie; mmdebstrap 151-177 s
# (94-101 s) and 254-440 s (173 s). Most of it is maintainer scripts under emulation (perl's
# debconf, tzdata, systemd), so it is made once. dpkg skips its fsync calls while the root is
# made (force-unsafe-io; a root cut short is remade, never trusted), and that setting is
# removed afterwards. usr-is-merged answers init-system-helpers'
# "usrmerge | usr-is-merged" as debootstrap does (usrmerge would bring perl in). Callers copy
# the root before changing anything in it (scripts/arm64/install-check).
arm64_ensure_target_root() {
    local suite=$1 root=$arm64_cache/root-$1 packages stamp
    case $suite in bookworm | trixie) ;; *) arm64_fail "no arm64 root for '$suite' (bookworm or trixie)" ;; esac
    packages="usr-is-merged $(arm64_target_packages "$suite")"
    stamp="$suite arm64 minbase: $packages"
    [[ -f $root/.egw-ready && $(cat "$root/.egw-ready") == "$stamp" ]] && return 0
    arm64_need_root "making the arm64 $suite root ($root)"
    arm64_host_packages mmdebstrap debian-archive-keyring
    arm64_ensure_binfmt
    local log=$arm64_cache/root-$suite.log started=$SECONDS
    arm64_say "making the Debian $suite arm64 root in $root (mmdebstrap, maintainer scripts under qemu-user: 2-5 minutes; log: $log)"
    rm -rf "$root"
    # In a mount namespace of its own, so the mounts mmdebstrap makes in the root go with it
    # even when it is cut short. check/qemu wants arch-test; arm64_ensure_binfmt did that check.
    unshare --mount --propagation private \
        mmdebstrap --mode=root --variant=minbase --architectures=arm64 --include="${packages// /,}" \
        --dpkgopt=force-unsafe-io --skip=check/qemu "$suite" "$root" "$arm64_mirror" >"$log" 2>&1 \
        || { tail -n 15 "$log" >&2; arm64_fail "mmdebstrap of Debian $suite arm64 from $arm64_mirror failed (log: $log)"; }
    rm -f "$root/etc/dpkg/dpkg.cfg.d/99mmdebstrap"
    [[ $(chroot "$root" dpkg --print-architecture 2>/dev/null) == arm64 ]] \
        || arm64_fail "the $suite root's own dpkg does not run (qemu-user through binfmt_misc: $(head -n 1 /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null || echo not registered))"
    arm64_say "made the $suite arm64 root in $((SECONDS - started)) s ($(du -sm "$root" | cut -f1) MB)"
    echo "$stamp" >"$root/.egw-ready"
}

# Runs "$@" as root in the arm64 root $1 (a throwaway copy: nothing here is undone), the way a
# booted Pi's command line would see it, as far as a chroot can: its own /proc (a PID namespace
# of its own, so every process the command leaves behind, such as a dbus-daemon, ends with it),
# the host's /dev, and an empty tmpfs on /run and /tmp. No systemd runs: /run/systemd/system is
# absent, which maintainer scripts take to mean "not booted with systemd" (a chroot, an image
# build), as on a Pi's image being prepared.
arm64_in_target() {
    local root=$1; shift
    unshare --mount --pid --fork --propagation private bash -euo pipefail -c '
        root=$1; shift
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        mount -t tmpfs -o mode=0755 tmpfs "$root/run"
        mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
        # Not exec: this bash stays PID 1 of the namespace (the command is no init), and its
        # end takes down whatever the command left running.
        chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
            LANG=C.UTF-8 TERM=dumb "$@"
        exit $?
    ' arm64-in-target "$root" "$@"
}

# ---- A real arm64 kernel: the unit's seccomp filter cannot be tried under qemu-user ----------
# qemu-user translates system calls to the host's and refuses seccomp(2) (ENOSYS), so an arm64
# program's system-call filter only means something under an arm64 kernel: Debian bookworm's
# arm64 kernel under qemu-system-aarch64 (software emulation, a Cortex-A53 like the Pi 3's),
# booted straight into a root shared over 9p.

arm64_vm=$arm64_cache/vm
arm64_vm_modules=(virtio_pci 9pnet_virtio 9p)

# $arm64_vm/vmlinuz and $arm64_vm/initrd.gz: the kernel of bookworm's linux-image-arm64 and an
# initramfs of bookworm's arm64 busybox-static, the modules a 9p root needs (dependencies first,
# as the host's modprobe reads them from the kernel's own modules) and scripts/arm64/vm-init.
arm64_ensure_vm_kernel() {
    local stamp
    stamp=$(cat "$arm64_here/vm-init" <(declare -f arm64_ensure_vm_kernel) <(echo "${arm64_vm_modules[*]}") | sha256sum | cut -d' ' -f1)
    [[ -f $arm64_vm/.egw-ready && $(cat "$arm64_vm/.egw-ready") == "$stamp" ]] && return 0
    arm64_need_root "making the arm64 VM kernel ($arm64_vm)"
    arm64_host_packages debian-archive-keyring kmod cpio
    local log=$arm64_cache/vm.log
    arm64_say "making the arm64 kernel and initramfs for the seccomp check in $arm64_vm (log: $log)"
    rm -rf "$arm64_vm"; mkdir -p "$arm64_vm"
    : >"$log"
    compgen -G "$arm64_cache/apt/bookworm/lists/*_Packages" >/dev/null \
        || arm64_apt bookworm update >>"$log" 2>&1 \
        || arm64_fail "apt-get update of Debian bookworm arm64 from $arm64_mirror failed (log: $log)"
    # linux-image-arm64 names the current ABI's package; its version is in a dry run. Lists
    # older than the mirror name files it no longer has: then they are read again, once.
    local image work attempt
    work=$(mktemp -d)
    for attempt in 1 2; do
        image=$(arm64_apt bookworm install -s linux-image-arm64 2>>"$log" | sed -n 's/^Inst \(linux-image-[0-9][^ ]*-arm64\) .*/\1/p')
        [[ -n $image ]] && (cd "$work" && arm64_apt bookworm download "$image" busybox-static) >>"$log" 2>&1 && break
        rm -f "$work"/*.deb
        [[ $attempt == 1 ]] && arm64_apt bookworm update >>"$log" 2>&1 && continue
        rm -rf "$work"
        arm64_fail "could not download bookworm's arm64 kernel (linux-image-arm64: ${image:-not found}) and busybox-static from $arm64_mirror (log: $log)"
    done
    mkdir -p "$work/kernel" "$work/busybox" "$work/initramfs"/{bin,dev,proc,sys,newroot,modules}
    dpkg-deb -x "$work"/linux-image-*.deb "$work/kernel"
    dpkg-deb -x "$work"/busybox-static_*.deb "$work/busybox"
    local version
    version=$(ls "$work/kernel/lib/modules")
    cp "$work/kernel/boot/vmlinuz-$version" "$arm64_vm/vmlinuz"
    cp "$work/busybox/bin/busybox" "$work/initramfs/bin/busybox"
    cp "$arm64_here/vm-init" "$work/initramfs/init"
    chmod 0755 "$work/initramfs/init"
    # The package leaves modules.dep to its postinst; depmod reads any architecture's modules.
    depmod -b "$work/kernel" "$version" >>"$log" 2>&1 || arm64_fail "depmod of the arm64 kernel $version failed (log: $log)"
    # shellcheck source=../vm/guest-vm.sh
    . "$arm64_repo/scripts/vm/guest-vm.sh"
    copy_initramfs_modules "$work/kernel" "$version" "$work/initramfs" "${arm64_vm_modules[@]}" 2>>"$log" \
        || arm64_fail "the arm64 kernel $version lacks one of ${arm64_vm_modules[*]} (log: $log)"
    [[ -s $work/initramfs/modules.order ]] || arm64_fail "no modules found for ${arm64_vm_modules[*]} in the arm64 kernel $version (log: $log)"
    (cd "$work/initramfs" && find . | cpio -o -H newc --quiet | gzip -1) >"$arm64_vm/initrd.gz"
    echo "$image $(tr '\n' ' ' <"$work/initramfs/modules.order")" >"$arm64_vm/kernel"
    rm -rf "$work"
    echo "$stamp" >"$arm64_vm/.egw-ready"
}

# Boots the arm64 kernel on the root $1 (shared read-write over 9p: give it a throwaway copy)
# and runs the program $2 (a path inside that root) as PID 1's child, chrooted there with /proc,
# /sys, /dev, and tmpfs on /run and /tmp; the guest powers off when it ends. The console goes
# to $3; after $4 seconds qemu is stopped. What the program should report, it writes into the
# root. Returns qemu's status (0 when the guest powered off by itself).
arm64_vm_run() {
    local root=$1 program=$2 console=$3 limit=$4
    arm64_host_packages qemu-system-arm
    arm64_ensure_vm_kernel
    # One virtual CPU: the checks need no more, and it leaves the other core to the builds.
    timeout "$limit" qemu-system-aarch64 \
        -machine virt -accel tcg -cpu cortex-a53 -smp 1 -m 1024 \
        -nodefaults -nographic -no-reboot -monitor none -serial "file:$console" \
        -kernel "$arm64_vm/vmlinuz" -initrd "$arm64_vm/initrd.gz" \
        -append "console=ttyAMA0 panic=-1 loglevel=4 egw_program=$program" \
        -virtfs "local,path=$root,mount_tag=root,security_model=passthrough,multidevs=remap"
}
