#!/usr/bin/env bash
# Build and run the ccbench container image with podman (runc), needing no
# image registry: the Debian 12 base image is made locally with debootstrap
# from the Debian mirror apt already uses, once, and reused afterwards.
#
# usage: scripts/container.sh [build] [-t TAG]   base (if missing) + image
#        scripts/container.sh base               only the base image
#        scripts/container.sh run PODMAN_RUN_ARGS...
#        scripts/container.sh kube-play PODMAN_KUBE_PLAY_ARGS...
#   build: TAG defaults to ccbench (localhost/ccbench:latest)
#   run:   `podman run` with the OCI runtime and resource limits that work
#          here, e.g. scripts/container.sh run --rm -v $PWD/res:/results ccbench ci quick
#   kube-play: `podman kube play` with the same runtime and limits (kube
#          play takes no --ulimit: they go in a containers.conf of its own,
#          CONTAINERS_CONF, for this call only); its pods' pause process
#          is catatonit (scripts/deps.sh)
# Environment: those of scripts/image-lib.sh (CCB_DEBIAN_MIRROR,
# CCB_OCI_RUNTIME, CCB_BUILD_TIMEOUT, CCB_IMAGE_CACHE).
#
# With docker, none of this is needed: `docker build -f docker/Dockerfile
# -t ccbench .` pulls debian:12 from Docker Hub as usual.
#
# build, each step cached:
#   1. base: if neither docker.io/library/debian:12 (what `FROM debian:12`
#      resolves to) nor localhost/debian:12 exists, tag the bookworm base
#      of scripts/release.sh (a minbase bookworm from debootstrap, made
#      once and kept in /var/cache/ccbench-release) as localhost/debian:12,
#      and as docker.io/library/debian:12 unless that name is taken.
#   2. `podman build --pull=never --network host`: podman's layer cache
#      (keyed on file contents, not times) makes a rebuild with nothing
#      changed take a second; the apt layer (deps.sh) is redone only when
#      scripts/deps.sh changes.
# A previous ccbench image that the build left untagged is removed (only
# that one: images ccbench did not make are never touched).  Builds are
# serialised with a lock, so concurrent test runs do not race.
# build prints the image's ID on stdout (run it by ID to be immune to a
# concurrent rebuild moving the tag).
# Exit status: 0 built, 1 a step failed or timed out, 2 bad usage; run:
# podman's.
set -euo pipefail
top=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)

cmd=build
case "${1:-}" in
build | base | run | kube-play) cmd=$1; shift ;;
-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
tag=ccbench
if [[ "$cmd" == build ]]; then
    while (($#)); do
        case "$1" in
        -t | --tag)
            (($# >= 2)) || { echo "container.sh: $1 needs a value" >&2; exit 2; }
            tag=$2
            shift 2
            ;;
        *) echo "container.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
        esac
    done
elif [[ "$cmd" == base && $# -gt 0 ]]; then
    echo "container.sh: base takes no arguments" >&2
    exit 2
fi

BASE=localhost/debian:12
HUB=docker.io/library/debian:12

log() { echo "container.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }
# shellcheck source=scripts/image-lib.sh
. "$top/scripts/image-lib.sh"
pm() { ccb_pm "$@"; }

command -v podman >/dev/null || die "podman not installed (scripts/deps.sh installs it; with docker: docker build -f docker/Dockerfile -t ccbench .)"
ccb_need_podman

if [[ "$cmd" == run ]]; then
    read -ra limits <<<"$(ccb_run_limits)"
    exec podman --runtime "$ccb_runtime" run "${limits[@]}" "$@"
fi
if [[ "$cmd" == kube-play ]]; then
    read -ra limits <<<"$(ccb_run_limits)"
    conf=$(mktemp /tmp/ccbench-kube-conf.XXXXXX)
    trap 'rm -f "$conf"' EXIT
    # "--ulimit nofile=A:A --ulimit nproc=B:B" -> default_ulimits.
    printf '[containers]\ndefault_ulimits = ["%s", "%s"]\n' "${limits[1]}" "${limits[3]}" >"$conf"
    rc=0
    CONTAINERS_CONF=$conf podman --runtime "$ccb_runtime" kube play "$@" || rc=$?
    exit "$rc"
fi

# The Debian 12 minbase image is scripts/release.sh's bookworm base
# (localhost/ccbench-base:bookworm): made once, whichever script needs it
# first.
make_base() {
    if pm image exists "$HUB"; then
        return 0
    fi
    if ! pm image exists "$BASE"; then
        ccb_base_image bookworm localhost/ccbench-base:bookworm
        pm tag localhost/ccbench-base:bookworm "$BASE"
    fi
    # `FROM debian:12` resolves to Docker Hub's name: give the local image
    # that name too (only when it is free).
    pm tag "$BASE" "$HUB"
}

# One build at a time on this machine (the image store is shared).
ccb_lock

make_base
[[ "$cmd" == base ]] && exit 0

old=$(pm image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)
s=$(date +%s)
log "building $tag from $top (podman, $ccb_runtime)"
if ! timeout --kill-after=30 "$ccb_build_limit" podman --runtime "$ccb_runtime" build --pull=never --network host \
    -f "$top/docker/Dockerfile" -t "$tag" "$top" >&2; then
    die "podman build failed (or took over $ccb_build_limit s)"
fi
new=$(pm image inspect --format '{{.Id}}' "$tag")
[[ -n "$old" && "$old" != "$new" ]] && ccb_drop_old "$old"
log "built $tag (${new:0:12}) in $(($(date +%s) - s)) s"
echo "$new"
