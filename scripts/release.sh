#!/usr/bin/env bash
# The Ceph releases ccbench supports, each in a podman image made from
# Debian's own packages, without any image registry (debootstrap from the
# mirror apt already uses; see scripts/image-lib.sh).
#
# usage: scripts/release.sh image REL
#            REL's test image: minbase + what `scripts/deps.sh
#            --release-image` installs there (build, cluster and test tools;
#            not the host-only ones: podman, debootstrap, qemu, clang).
#            Prints the image ID.  Cached: rebuilt only when deps.sh (or
#            this recipe) changes.
#        scripts/release.sh base REL
#            REL's bare minbase image, apt sources set (for a clean
#            `apt-get install ./ccbench_*.deb`).  Prints the image ID.
#        scripts/release.sh run REL [PODMAN_RUN_OPTS...] -- CMD...
#            run CMD in REL's test image: --privileged, --network host,
#            /dev/fuse, the checkout mounted at its own path and used as the
#            working directory (this directory, if inside the checkout),
#            bounded by CCB_RELEASE_TIMEOUT, the container removed
#            afterwards whatever happens.  Exit status: CMD's (124 timeout).
#        scripts/release.sh run-base REL [PODMAN_RUN_OPTS...] -- CMD...
#            the same in REL's bare base image (a fresh machine: nothing of
#            ccbench's installed; e.g. tests/release/demo.sh)
#        scripts/release.sh stage REL [PATTERN]
#            REL's release stage (tests/release/stage.sh, in REL's image):
#            build with -Werror in build-rel-REL, unit tests, a throwaway
#            cluster of REL and the integration tests matching PATTERN
#            (default: the release subset).  One summary line at the end.
#        scripts/release.sh list
#            the releases, one a line: REL SUITE-VERSION CEPH
#   REL: bookworm (Debian 12, Ceph 16.2 Pacific), trixie (Debian 13, Ceph
#        18.2 Reef) or forky (Debian testing, Ceph 20.2 Tentacle).
# Images: localhost/ccbench-base:REL and localhost/ccbench-release:REL.
# The debootstrap output is kept in /var/cache/ccbench-release/REL.tar, so
# that a removed image is imported again in seconds; a fresh machine makes
# it (about 20 s a release, plus the package installs: a few minutes).
# Builds are serialised with a lock shared with scripts/container.sh.
# Environment: CCB_RELEASE_TIMEOUT (run: seconds, default 3600),
# CCB_RELEASE_LOCK (stage: a file in the checkout that the build and unit
# tests hold; see tests/release/stage.sh), and those
# of scripts/image-lib.sh (CCB_DEBIAN_MIRROR, CCB_OCI_RUNTIME,
# CCB_BUILD_TIMEOUT, CCB_IMAGE_CACHE).
# Exit status: 0 ok, 1 a step failed or timed out, 2 bad usage; run: CMD's;
# stage: 0 only if every step passed.
set -euo pipefail
top=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)

log() { echo "release.sh: $*" >&2; }
die() {
    log "error: $*"
    exit 1
}
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
bad() {
    log "$*"
    echo "usage: scripts/release.sh image|base REL | run|run-base REL [PODMAN_RUN_OPTS...] -- CMD... | stage REL [PATTERN] | list" >&2
    exit 2
}

RELEASES=(bookworm trixie forky)
declare -A DEBIAN=([bookworm]="Debian 12" [trixie]="Debian 13" [forky]="Debian testing")
declare -A CEPH=([bookworm]="16.2 Pacific" [trixie]="18.2 Reef" [forky]="20.2 Tentacle")

cmd=${1:-}
case "$cmd" in
-h | --help | help)
    usage
    exit 0
    ;;
list)
    for r in "${RELEASES[@]}"; do printf '%s\t%s\tCeph %s\n' "$r" "${DEBIAN[$r]}" "${CEPH[$r]}"; done
    exit 0
    ;;
image | base | run | run-base | stage) shift ;;
"") bad "no command" ;;
*) bad "unknown command '$cmd'" ;;
esac
rel=${1:-}
[[ -n "$rel" ]] || bad "$cmd needs a release (${RELEASES[*]})"
[[ -n "${DEBIAN[$rel]:-}" ]] || bad "unknown release '$rel' (expected one of: ${RELEASES[*]})"
shift
case "$cmd" in
image | base) (($# == 0)) || bad "$cmd takes only the release" ;;
stage) (($# <= 1)) || bad "stage takes the release and at most one pattern" ;;
esac
run_limit=${CCB_RELEASE_TIMEOUT:-3600}
[[ "$run_limit" =~ ^[1-9][0-9]*$ ]] || bad "CCB_RELEASE_TIMEOUT must be seconds, not '$run_limit'"

# shellcheck source=scripts/image-lib.sh
. "$top/scripts/image-lib.sh"
ccb_need_podman

BASE_TAG=localhost/ccbench-base:$rel
IMAGE_TAG=localhost/ccbench-release:$rel

# The test image's recipe.  deps.sh comes in alone (the build context is a
# directory holding only it), so that podman's layer cache, which keys a
# COPY on the file's contents, redoes the apt layer only when deps.sh
# changes.  Services never start from a package's postinst (policy-rc.d);
# apt keeps no lists or .debs in the image.
containerfile() {
    cat <<EOF
FROM $BASE_TAG
ENV DEBIAN_FRONTEND=noninteractive
RUN printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d
COPY deps.sh /tmp/ccbench-deps.sh
RUN /tmp/ccbench-deps.sh --release-image && apt-get clean && rm -rf /var/lib/apt/lists/* /tmp/ccbench-deps.sh
LABEL ccbench.recipe=$1
EOF
}

# recipe_sum: what the image is made from (deps.sh and the recipe).  An
# image labelled with the same sum is current.
recipe_sum() {
    { cat "$top/scripts/deps.sh"; containerfile x; } | sha256sum | cut -c1-16
}

image_id() { ccb_pm image inspect --format '{{.Id}}' "$1" 2>/dev/null; }

make_base() {
    local id
    if ! id=$(image_id "$BASE_TAG"); then
        ccb_lock
        ccb_base_image "$rel" "$BASE_TAG"
        id=$(image_id "$BASE_TAG") || die "no $BASE_TAG after the import"
    fi
    echo "$id"
}

make_image() {
    local sum id old ctx s
    sum=$(recipe_sum)
    if [[ "$(ccb_pm image inspect --format '{{index .Labels "ccbench.recipe"}}' "$IMAGE_TAG" 2>/dev/null)" == "$sum" ]]; then
        image_id "$IMAGE_TAG"
        return 0
    fi
    ccb_lock
    # Another caller may have built it while this one waited for the lock.
    if [[ "$(ccb_pm image inspect --format '{{index .Labels "ccbench.recipe"}}' "$IMAGE_TAG" 2>/dev/null)" == "$sum" ]]; then
        image_id "$IMAGE_TAG"
        return 0
    fi
    ccb_base_image "$rel" "$BASE_TAG"
    old=$(image_id "$IMAGE_TAG" || true)
    ctx=$(mktemp -d /var/tmp/ccbench-release-ctx.XXXXXX)
    # shellcheck disable=SC2064 # ctx is fixed now
    trap "rm -rf '$ctx'" EXIT
    cp "$top/scripts/deps.sh" "$ctx/deps.sh"
    containerfile "$sum" >"$ctx/Containerfile"
    log "building $IMAGE_TAG (Debian packages of $rel; minutes the first time)"
    s=$(date +%s)
    if ! timeout --kill-after=30 "$ccb_build_limit" podman --runtime "$ccb_runtime" build --pull=never \
        --network host -f "$ctx/Containerfile" -t "$IMAGE_TAG" "$ctx" >"$ctx/build.log" 2>&1; then
        tail -30 "$ctx/build.log" >&2
        die "podman build of $IMAGE_TAG failed (or took over $ccb_build_limit s)"
    fi
    id=$(image_id "$IMAGE_TAG") || die "no $IMAGE_TAG after the build"
    [[ -n "$old" && "$old" != "$id" ]] && ccb_drop_old "$old"
    rm -rf "$ctx"
    trap - EXIT
    log "built $IMAGE_TAG (${id:0:12}) in $(($(date +%s) - s)) s"
    echo "$id"
}

# run_in IMAGE_MAKER [PODMAN_RUN_OPTS...] -- CMD...: run CMD in the image
# that IMAGE_MAKER (make_image, make_base) prints.
run_in() {
    local maker=$1
    shift
    local -a opts=() limits
    while (($#)) && [[ "$1" != -- ]]; do
        opts+=("$1")
        shift
    done
    (($#)) || bad "run: no '--' before the command"
    shift
    (($#)) || bad "run: no command after '--'"
    local id name wd rc=0 s
    id=$($maker)
    name=ccbench-rel-$rel-$$-$RANDOM
    wd=$PWD
    [[ "$wd" == "$top" || "$wd" == "$top"/* ]] || wd=$top
    read -ra limits <<<"$(ccb_run_limits)"
    # The container goes whatever happens: --rm on a normal end, and on a
    # timeout or a signal (which may leave it running without its podman
    # client) by name.
    # shellcheck disable=SC2064 # name is fixed now
    trap "timeout 60 podman --runtime '$ccb_runtime' rm -f -t 2 '$name' >/dev/null 2>&1 || true" EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM HUP
    # In the background, so that a signal is handled at once (bash defers
    # traps until a foreground child ends); stdin passed on explicitly
    # (a background job's would be /dev/null).
    # --pids-limit -1: a cluster's daemons run ~1000 threads, over
    # podman's default of 2048 once clients run beside them.
    s=$(date +%s)
    timeout --kill-after=10 "$run_limit" podman --runtime "$ccb_runtime" run --rm --name "$name" \
        --privileged --network host --pids-limit -1 --device /dev/fuse "${limits[@]}" \
        -v "$top:$top" -w "$wd" -e "CCB_RELEASE=$rel" "${opts[@]}" "$id" "$@" <&0 &
    wait $! || rc=$?
    # 124: podman ended at the TERM; 137: it was KILLed 10 s later (a
    # command that ignores TERM, e.g. one running as the container's pid 1).
    if ((rc == 124 || (rc == 137 && $(date +%s) - s >= run_limit))); then
        log "run: '$*' in $rel took over $run_limit s (CCB_RELEASE_TIMEOUT): stopped"
        rc=124
    fi
    return "$rc"
}

# The commands run in a function called on the last line, with exit: once
# running, bash reads nothing more of this file, so that editing it (in a
# checkout that running tests share) cannot change a run midway.
main() {
case "$cmd" in
base) make_base ;;
image) make_image ;;
run) run_in make_image "$@" ;;
run-base) run_in make_base "$@" ;;
stage)
    s=$(date +%s)
    rc=0
    env_opts=()
    [[ -z "${CCB_RELEASE_LOCK:-}" ]] || env_opts=(-e "CCB_RELEASE_LOCK=$CCB_RELEASE_LOCK")
    run_in make_image "${env_opts[@]}" -- "$top/tests/release/stage.sh" "${1:-}" || rc=$?
    echo "release $rel (${DEBIAN[$rel]}, Ceph ${CEPH[$rel]}): $( ((rc == 0)) && echo passed || echo "FAILED (exit $rc)") in $(($(date +%s) - s)) s"
    exit "$rc"
    ;;
esac
}
main "$@"; exit
