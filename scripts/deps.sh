#!/usr/bin/env bash
# Install (with apt-get) the Debian packages ccbench needs, on Debian 12
# (bookworm, Ceph 16.2), 13 (trixie, Ceph 18.2) or testing (forky, Ceph
# 20.2): each release's own names for them.
#
# Usage: scripts/deps.sh [--test | --demo | --image | --release-image] [EXTRA_PACKAGE...]
#   --test           (the default) everything scripts/test.sh needs
#   --demo           what scripts/demo.sh needs: the build and the
#                    throwaway cluster (scripts/minicluster.sh), nothing
#                    that only tests use
#   --image          the same as --demo, for the container image
#                    (docker/Dockerfile)
#   --release-image  --test less the tools only the host uses (the
#                    container engine, debootstrap, the qemu guest of
#                    tests/krbd-vm, clang for fuzzing, clang-format): the
#                    per-release test images of scripts/release.sh
#
# Idempotent: only packages that are not installed are installed, and
# `apt-get update` runs only when something is missing (or a name must be
# looked up).  Prints what it installs on stderr and nothing at all when
# everything is present.  Needs root only when something is missing.
set -euo pipefail

# The build (CMakeLists.txt; the unit tests are part of the default build,
# so cmocka is too).  libradospp-dev: the C++ headers of src/paths/zerocopy.cc,
# librados.hpp and rados/buffer.h.
BUILD=(
    cmake pkg-config gcc g++ make
    librados-dev libradospp-dev librbd-dev libcephfs-dev
    libjansson-dev liburing-dev libcmocka-dev
)
# The throwaway cluster (scripts/minicluster.sh, with or without --mds) and
# the CLI tools (ceph, rados, rbd; python3-rados comes with ceph-common).
# Scripts: python3, jq, timeout/numfmt (coreutils), flock (util-linux),
# ps/pgrep (procps), ss (iproute2).
CLUSTER=(
    ceph-mon ceph-osd ceph-mds ceph-mgr ceph-common
    python3 jq coreutils util-linux procps iproute2
)
# What only the tests (and bench/) use: rbd-fuse and the fuse tools to
# mount and unmount it (krbd through fuse + loop), ceph-fuse (the fs tests
# check file layouts independently through it, and run --mount-via fuse),
# mkfs.xfs (xfsprogs: --mount on a local XFS), getfattr (attr), fio
# (bench/), the packaging tools (the .deb build and its lintian check), and
# python3-kubernetes (the API models that t_group_manifest checks the
# `group manifest` Jobs against, offline).
# "@fuse" is resolved below: the fuse tools that this release's rbd-fuse
# is built for (fuse on bookworm, fuse3 since trixie).
TESTS=(rbd-fuse @fuse ceph-fuse xfsprogs attr fio debhelper dpkg-dev lintian python3-kubernetes)
# Host only: the container engine that builds and runs the images
# (scripts/container.sh, scripts/release.sh, tests/integration/t_container.sh)
# and debootstrap, which makes their Debian base images without a registry;
# catatonit, the pause process of the pods `podman kube play` makes
# (scripts/container.sh kube-play, t_group_kube);
# the qemu guest of tests/krbd-vm (qemu, a static busybox, cpio, kmod);
# fuzzing (tests/fuzz) with clang and its libclang_rt.fuzzer / asan / ubsan
# ("@clang-rt": the libclang-rt-N-dev of this release's clang N); clang-format
# (scripts/format-check.sh); a real browser for the HTML pages' test
# (tests/integration/t_html_report.sh: headless Chromium driven by
# Selenium, called as /usr/bin/python3).
HOST=(
    podman runc debootstrap catatonit
    qemu-system-x86 busybox-static cpio kmod
    clang @clang-rt clang-format
    chromium chromium-driver python3-selenium
)

mode=--test
case "${1:-}" in
--test | --demo | --image | --release-image)
    mode=$1
    shift
    ;;
-h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
-*)
    echo "deps.sh: unknown option '$1' (see --help)" >&2
    exit 2
    ;;
esac
case $mode in
--demo | --image) PACKAGES=("${BUILD[@]}" "${CLUSTER[@]}") ;;
--release-image) PACKAGES=("${BUILD[@]}" "${CLUSTER[@]}" "${TESTS[@]}") ;;
--test) PACKAGES=("${BUILD[@]}" "${CLUSTER[@]}" "${TESTS[@]}" "${HOST[@]}") ;;
esac
PACKAGES+=("$@")

installed() { [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]; }

need_root() {
    [[ "$(id -u)" -eq 0 ]] && return 0
    echo "deps.sh: error: must be root to install $1 (try: sudo $0 $mode)" >&2
    exit 1
}

export DEBIAN_FRONTEND=noninteractive
updated=0
apt_update() {
    ((updated)) && return 0
    need_root "missing packages"
    echo "deps.sh: apt-get update" >&2
    apt-get update -q >&2
    updated=1
}

# lists_for PACKAGE: apt's lists know PACKAGE (apt-get update if not).
lists_for() { [[ -n "$(apt-cache show "$1" 2>/dev/null)" ]] || apt_update; }

# depends_first PACKAGE FIELD PATTERN: the first package named in PACKAGE's
# FIELD (Depends, Recommends) that matches PATTERN, from apt's lists.
depends_first() {
    apt-cache depends "$1" 2>/dev/null |
        sed -n "s/^ *|\{0,1\}$2: <\{0,1\}\($3\)>\{0,1\}\$/\1/p" | head -n 1
}

# resolve NAME: set RESOLVED to the package a "@role" stands for on this
# release (to nothing when one that fills the role is installed, so that a
# complete machine needs no apt lists).
RESOLVED=
resolve() {
    local v
    RESOLVED=
    case $1 in
    @fuse)
        installed fuse || installed fuse3 && return 0
        lists_for rbd-fuse
        v=$(depends_first rbd-fuse Recommends 'fuse[0-9]*')
        RESOLVED=${v:-fuse}
        ;;
    @clang-rt)
        # clang is a dependency package: its Depends names clang-N.
        v=$(dpkg-query -W -f='${Depends}' clang 2>/dev/null | grep -o 'clang-[0-9]\+' | head -n 1 || true)
        if [[ -z "$v" ]]; then
            lists_for clang
            v=$(depends_first clang Depends 'clang-[0-9][0-9]*')
        fi
        [[ -n "$v" ]] || {
            echo "deps.sh: error: apt names no clang-N package for clang" >&2
            exit 1
        }
        RESOLVED=libclang-rt-${v#clang-}-dev
        ;;
    *) RESOLVED=$1 ;;
    esac
}

missing=()
for p in "${PACKAGES[@]}"; do
    if [[ "$p" == @* ]]; then
        resolve "$p"
        p=$RESOLVED
        [[ -n "$p" ]] || continue
    fi
    installed "$p" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
    exit 0
fi

echo "deps.sh: missing packages: ${missing[*]}" >&2
need_root "them"
apt_update
# A root file system or container whose init is not systemd (no
# /run/systemd/system: a debootstrap chroot, podman) cannot start services,
# and forky's ceph-mon fails to configure there: its postinst runs
# `deb-systemd-invoke try-restart ceph-mon.service` unguarded ("System has
# not been booted with systemd").  There, and only while apt-get runs, a
# policy-rc.d denies every service action (exit 101, Debian's own switch for
# this), unless the system has one of its own.
if [[ ! -d /run/systemd/system && ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\n# scripts/deps.sh: no init system to start services; removed after apt-get\nexit 101\n' \
        >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
echo "deps.sh: apt-get install ${missing[*]}" >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
echo "deps.sh: installed: ${missing[*]}" >&2
