#!/usr/bin/env bash
# Install (with apt-get) the Debian packages ccbench needs to build, test and
# run its throwaway Ceph cluster (scripts/minicluster.sh).
#
# Usage: scripts/deps.sh [--image] [EXTRA_PACKAGE...]
#   --image  for the container image (docker/Dockerfile): everything but
#            the container engine, which only the host needs
#
# Idempotent: only packages that are not installed are installed, and
# `apt-get update` runs only when something is missing.  Prints what it
# installs on stderr and nothing at all when everything is present.
# Needs root only when something is missing.
set -euo pipefail

PACKAGES=(
    # Ceph daemons for scripts/minicluster.sh, CLI tools (ceph, rados, rbd)
    ceph-mon ceph-osd ceph-mds ceph-mgr ceph-common
    # client libraries ccbench links against (libradospp-dev: the C++
    # headers of src/zerocopy.cc, librados.hpp and rados/buffer.h)
    librados-dev libradospp-dev librbd-dev libcephfs-dev
    libjansson-dev libcmocka-dev liburing-dev
    # rbd-fuse needs fusermount (package fuse) to mount
    rbd-fuse fuse
    # the fs tests check file layouts independently through a ceph-fuse mount
    ceph-fuse
    fio qemu-system-x86 busybox-static cpio kmod
    # build
    cmake pkg-config gcc g++ make
    # scripts: python3, jq, timeout (coreutils), flock (util-linux),
    # ps/pgrep (procps), ss (iproute2), getfattr (attr)
    python3 jq coreutils util-linux procps iproute2 attr
)
# Host only: the container engine that builds and runs the image
# (scripts/container.sh, tests/integration/t_container.sh) and debootstrap,
# which makes its Debian base image without a registry.
# Also the test tools the image does not need: fuzzing (tests/fuzz) with
# clang 14 and its libclang_rt.fuzzer / asan / ubsan, and clang-format
# (scripts/format-check.sh, a stage of test.sh).
HOST_PACKAGES=(podman runc debootstrap clang libclang-rt-14-dev clang-format)
if [[ "${1:-}" == --image ]]; then
    shift
else
    PACKAGES+=("${HOST_PACKAGES[@]}")
fi
PACKAGES+=("$@")

missing=()
for p in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    if [[ "$status" != "install ok installed" ]]; then
        missing+=("$p")
    fi
done

if ((${#missing[@]} == 0)); then
    exit 0
fi

echo "deps.sh: missing packages: ${missing[*]}" >&2
if [[ "$(id -u)" -ne 0 ]]; then
    echo "deps.sh: error: must be root to install them (try: sudo $0${*:+ $*})" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "deps.sh: apt-get update" >&2
apt-get update -q >&2
echo "deps.sh: apt-get install ${missing[*]}" >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
echo "deps.sh: installed: ${missing[*]}" >&2
