#!/usr/bin/env bash
# Build and run the ccbench container image with podman (runc), needing no
# image registry: the Debian 12 base image is made locally with debootstrap
# from the Debian mirror apt already uses, once, and reused afterwards.
#
# usage: scripts/container.sh [build] [-t TAG]   base (if missing) + image
#        scripts/container.sh base               only the base image
#        scripts/container.sh run PODMAN_RUN_ARGS...
#   build: TAG defaults to ccbench (localhost/ccbench:latest)
#   run:   `podman run` with the OCI runtime and resource limits that work
#          here, e.g. scripts/container.sh run --rm -v $PWD/res:/results ccbench ci quick
# Environment:
#   CCB_DEBIAN_MIRROR  Debian URI for debootstrap (default: the one apt's
#                      sources name for bookworm)
#   CCB_OCI_RUNTIME    podman's OCI runtime (default runc: crun fails on
#                      some hosts' cgroups)
#   CCB_BUILD_TIMEOUT  seconds allowed for debootstrap, and again for the
#                      image build (default 1200 each)
#
# With docker, none of this is needed: `docker build -f docker/Dockerfile
# -t ccbench .` pulls debian:12 from Docker Hub as usual.
#
# build, each step cached:
#   1. base: if neither docker.io/library/debian:12 (what `FROM debian:12`
#      resolves to) nor localhost/debian:12 exists, debootstrap a minbase
#      bookworm and `podman import` it as localhost/debian:12; tag it
#      docker.io/library/debian:12 unless that name is already taken.
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
build | base | run) cmd=$1; shift ;;
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
SUITE=bookworm
runtime=${CCB_OCI_RUNTIME:-runc}
limit=${CCB_BUILD_TIMEOUT:-1200}
[[ "$limit" =~ ^[1-9][0-9]*$ ]] || { echo "container.sh: CCB_BUILD_TIMEOUT must be seconds, not '$limit'" >&2; exit 2; }

log() { echo "container.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }
pm() { podman --runtime "$runtime" "$@"; }

command -v podman >/dev/null || die "podman not installed (scripts/deps.sh installs it; with docker: docker build -f docker/Dockerfile -t ccbench .)"
command -v "$runtime" >/dev/null || die "OCI runtime $runtime not installed"

if [[ "$cmd" == run ]]; then
    # podman gives a container 1048576 open files and (as root) 4194304
    # processes unless told otherwise; raising a limit needs
    # CAP_SYS_RESOURCE, which sessions on some machines (these CI hosts)
    # lack, and then every container fails to start ("error setting
    # rlimit").  Pass on the limits this shell has instead: its open files,
    # and its processes capped at 32768, podman's own cap on them.  (Root
    # in the container is exempt from the process limit anyway.)
    nofile=$(ulimit -Hn)
    nproc=$(ulimit -Hu)
    [[ "$nofile" == unlimited ]] && nofile=1048576
    [[ "$nproc" == unlimited || "$nproc" -gt 32768 ]] && nproc=32768
    exec podman --runtime "$runtime" run --ulimit "nofile=$nofile:$nofile" \
        --ulimit "nproc=$nproc:$nproc" "$@"
fi

# debian_uri SUITE: the first URI apt's sources name for SUITE (one-line
# .list files and deb822 .sources files), so that debootstrap uses the
# mirror this machine is configured for (maybe the only one it can reach).
debian_uri() {
    local suite=$1 f
    local -a files=()
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [[ -f "$f" ]] && files+=("$f")
    done
    ((${#files[@]})) || return 0
    python3 - "$suite" "${files[@]}" <<'PY'
import re, sys
suite, files = sys.argv[1], sys.argv[2:]
for f in files:
    text = open(f, encoding="utf-8", errors="replace").read()
    if f.endswith(".sources"):
        for block in re.split(r"\n\s*\n", text):
            fields = {}
            for line in block.splitlines():
                if line.startswith("#") or ":" not in line or line[:1].isspace():
                    continue
                k, v = line.split(":", 1)
                fields[k.strip().lower()] = v.split()
            if ("deb" in fields.get("types", []) and suite in fields.get("suites", [])
                    and fields.get("enabled", ["yes"])[0] != "no" and fields.get("uris")):
                print(fields["uris"][0]); sys.exit(0)
    else:
        for line in text.splitlines():
            w = re.sub(r"\[[^]]*\]", " ", line.split("#", 1)[0]).split()
            if len(w) >= 3 and w[0] == "deb" and w[2] == suite:
                print(w[1]); sys.exit(0)
PY
}

# unmount_under DIR: whatever debootstrap left mounted in DIR (it mounts
# proc and sys in the target; an interrupted run leaves them).
unmount_under() {
    local m
    awk -v d="$1/" 'index($2, d) == 1 {print $2}' /proc/mounts | sort -r |
        while read -r m; do umount -l "$m" 2>/dev/null || true; done
}

make_base() {
    if pm image exists "$HUB"; then
        return 0
    fi
    if ! pm image exists "$BASE"; then
        local mirror security dir s
        mirror=${CCB_DEBIAN_MIRROR:-$(debian_uri "$SUITE")}
        [[ -n "$mirror" ]] || die "no Debian mirror for $SUITE in /etc/apt/sources*; set CCB_DEBIAN_MIRROR"
        security=$(debian_uri "$SUITE-security")
        command -v debootstrap >/dev/null || die "debootstrap not installed (scripts/deps.sh installs it)"
        dir=$(mktemp -d /var/tmp/ccbench-base.XXXXXX)
        # shellcheck disable=SC2064 # dir is fixed now
        trap "unmount_under '$dir'; rm -rf --one-file-system '$dir'" EXIT
        log "making the base image $BASE: debootstrap --variant=minbase $SUITE from $mirror"
        s=$(date +%s)
        if ! timeout --kill-after=10 "$limit" debootstrap --variant=minbase "$SUITE" "$dir/root" "$mirror" \
            >"$dir/debootstrap.log" 2>&1; then
            tail -20 "$dir/debootstrap.log" >&2
            die "debootstrap failed (or took over $limit s)"
        fi
        unmount_under "$dir/root"
        # The sources the official image has: release, updates, security.
        rm -f "$dir/root/etc/apt/sources.list"
        {
            printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\n' "$mirror" "$SUITE" "$SUITE"
            [[ -z "$security" ]] ||
                printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\n' "$security" "$SUITE"
        } >"$dir/root/etc/apt/sources.list.d/debian.sources"
        rm -rf "$dir/root/var/cache/apt/archives/"*.deb "$dir/root/var/lib/apt/lists/"*
        tar --numeric-owner -C "$dir/root" -c . |
            timeout 300 podman --runtime "$runtime" import -q --change 'CMD ["bash"]' \
                --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
                - "$BASE" >/dev/null || die "podman import failed"
        unmount_under "$dir"
        rm -rf --one-file-system "$dir"
        trap - EXIT
        log "base image $BASE made in $(($(date +%s) - s)) s"
    fi
    # `FROM debian:12` resolves to Docker Hub's name: give the local image
    # that name too (only when it is free).
    pm tag "$BASE" "$HUB"
}

# drop_old ID: remove the previous image of TAG, which this build left
# untagged, and its build-cache ancestors that nothing else uses (a
# rebuild after each source change would otherwise pile up ~10 MB
# each).  Stops at the first image that is tagged (the base, or one
# someone tagged) or still has children (shared with the new build).
drop_old() {
    local id=$1 parent
    while [[ -n "$id" ]]; do
        [[ "$(pm image inspect --format '{{len .RepoTags}}' "$id" 2>/dev/null)" == 0 ]] || return 0
        parent=$(pm image inspect --format '{{.Parent}}' "$id" 2>/dev/null) || return 0
        pm rmi "$id" >/dev/null 2>&1 || return 0
        id=$parent
    done
}

# One build at a time on this machine (the image store is shared).
lockdir=/run/lock
[[ -d "$lockdir" && -w "$lockdir" ]] || lockdir=/tmp
exec 9>"$lockdir/ccbench-container.lock"
timeout 1800 flock 9 || die "another build held the lock for 30 minutes"

make_base
[[ "$cmd" == base ]] && exit 0

old=$(pm image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)
s=$(date +%s)
log "building $tag from $top (podman, $runtime)"
if ! timeout --kill-after=30 "$limit" podman --runtime "$runtime" build --pull=never --network host \
    -f "$top/docker/Dockerfile" -t "$tag" "$top" >&2; then
    die "podman build failed (or took over $limit s)"
fi
new=$(pm image inspect --format '{{.Id}}' "$tag")
[[ -n "$old" && "$old" != "$new" ]] && drop_old "$old"
log "built $tag (${new:0:12}) in $(($(date +%s) - s)) s"
echo "$new"
