# shellcheck shell=bash
# What scripts/container.sh (the ccbench image) and scripts/release.sh (the
# per-release test images) share: podman with the runtime and limits that
# work here, Debian base images made without a registry (debootstrap from
# the mirror apt already uses, cached as a tarball), the build lock, and the
# removal of a replaced image.  Sourced, not run.  The caller defines
# log() and die() (messages prefixed with its own name) before sourcing.
#
# Environment (read here):
#   CCB_OCI_RUNTIME    podman's OCI runtime (default runc: crun fails on
#                      some hosts' cgroups)
#   CCB_DEBIAN_MIRROR  Debian URI for debootstrap and the images' apt sources
#                      (default: the one apt's sources name for that suite,
#                      else for this machine's own suite, else
#                      http://deb.debian.org/debian)
#   CCB_BUILD_TIMEOUT  seconds allowed for debootstrap, and again for an
#                      image build (default 1200 each)
#   CCB_IMAGE_CACHE    where debootstrap's output is kept as SUITE.tar
#                      (default /var/cache/ccbench-release)

ccb_runtime=${CCB_OCI_RUNTIME:-runc}
ccb_build_limit=${CCB_BUILD_TIMEOUT:-1200}
ccb_image_cache=${CCB_IMAGE_CACHE:-/var/cache/ccbench-release}
[[ "$ccb_build_limit" =~ ^[1-9][0-9]*$ ]] || {
    log "CCB_BUILD_TIMEOUT must be seconds, not '$ccb_build_limit'"
    exit 2
}

ccb_pm() { podman --runtime "$ccb_runtime" "$@"; }

# ccb_need_podman: podman and its runtime are installed (else die).
ccb_need_podman() {
    command -v podman >/dev/null || die "podman not installed (scripts/deps.sh installs it)"
    command -v "$ccb_runtime" >/dev/null || die "OCI runtime $ccb_runtime not installed"
}

# ccb_run_limits: the --ulimit options for `podman run`.  podman gives a
# container 1048576 open files and (as root) 4194304 processes unless told
# otherwise; raising a limit needs CAP_SYS_RESOURCE, which sessions on some
# machines (these CI hosts) lack, and then every container fails to start
# ("error setting rlimit").  Pass on the limits this shell has instead: its
# open files, and its processes capped at 32768, podman's own cap on them.
# (Root in the container is exempt from the process limit anyway.)
ccb_run_limits() {
    local nofile nproc
    nofile=$(ulimit -Hn)
    nproc=$(ulimit -Hu)
    [[ "$nofile" == unlimited ]] && nofile=1048576
    [[ "$nproc" == unlimited || "$nproc" -gt 32768 ]] && nproc=32768
    echo "--ulimit" "nofile=$nofile:$nofile" "--ulimit" "nproc=$nproc:$nproc"
}

# ccb_debian_uri SUITE: the first URI apt's sources name for SUITE (one-line
# .list files and deb822 .sources files), so that debootstrap uses the
# mirror this machine is configured for (maybe the only one it can reach).
ccb_debian_uri() {
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

# ccb_host_suite: this machine's Debian codename (bookworm, trixie...).
ccb_host_suite() {
    (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
}

# ccb_mirror SUITE [security]: the Debian (or, with "security", the
# Debian security) URI for SUITE.  A suite this machine does not use
# (trixie or forky on a bookworm host) gets the mirror of the host's own.
ccb_mirror() {
    local suite=$1 sec=${2:-} host uri
    host=$(ccb_host_suite)
    if [[ -z "$sec" ]]; then
        uri=${CCB_DEBIAN_MIRROR:-}
        [[ -n "$uri" ]] || uri=$(ccb_debian_uri "$suite")
        [[ -n "$uri" || -z "$host" ]] || uri=$(ccb_debian_uri "$host")
        echo "${uri:-http://deb.debian.org/debian}"
    else
        uri=$(ccb_debian_uri "$suite-security")
        [[ -n "$uri" || -z "$host" ]] || uri=$(ccb_debian_uri "$host-security")
        echo "${uri:-http://deb.debian.org/debian-security}"
    fi
}

# ccb_unmount_under DIR: whatever debootstrap left mounted in DIR (it
# mounts proc and sys in the target; an interrupted run leaves them).
ccb_unmount_under() {
    local m
    awk -v d="$1/" 'index($2, d) == 1 {print $2}' /proc/mounts | sort -r |
        while read -r m; do umount -l "$m" 2>/dev/null || true; done
}

# ccb_lock: one image build at a time on this machine (podman's image
# store is shared by every checkout and test run).  Held on fd 8 until the
# caller exits.
ccb_lock() {
    local lockdir=/run/lock
    [[ -d "$lockdir" && -w "$lockdir" ]] || lockdir=/tmp
    exec 8>"$lockdir/ccbench-container.lock"
    timeout 1800 flock 8 || die "another image build held the lock for 30 minutes"
}

# ccb_base_tar SUITE: make (once) the minbase root file system of SUITE as
# a tarball in the cache and print its path.  Its apt sources are those of
# Debian's official images (release, updates and security for a stable
# suite; the suite alone for testing).  Testing's Release file may be past
# its Valid-Until date on a mirror snapshot: apt in it does not check that.
ccb_base_tar() {
    local suite=$1 tar mirror security dir s script
    tar=$ccb_image_cache/$suite.tar
    if [[ -s "$tar" ]]; then
        echo "$tar"
        return 0
    fi
    command -v debootstrap >/dev/null || die "debootstrap not installed (scripts/deps.sh installs it)"
    mirror=$(ccb_mirror "$suite")
    security=$(ccb_mirror "$suite" security)
    # debootstrap knows a suite by a script of its name; one newer than
    # this debootstrap (forky on bookworm) is set up like sid.
    script=/usr/share/debootstrap/scripts/$suite
    [[ -e "$script" ]] || script=/usr/share/debootstrap/scripts/sid
    mkdir -p "$ccb_image_cache"
    dir=$(mktemp -d /var/tmp/ccbench-base.XXXXXX)
    # shellcheck disable=SC2064 # dir is fixed now
    trap "ccb_unmount_under '$dir'; rm -rf --one-file-system '$dir'" EXIT
    log "debootstrap --variant=minbase $suite from $mirror (once; cached in $tar)"
    s=$(date +%s)
    if ! timeout --kill-after=10 "$ccb_build_limit" debootstrap --variant=minbase "$suite" "$dir/root" \
        "$mirror" "$script" >"$dir/debootstrap.log" 2>&1; then
        tail -20 "$dir/debootstrap.log" >&2
        die "debootstrap of $suite failed (or took over $ccb_build_limit s)"
    fi
    ccb_unmount_under "$dir/root"
    rm -f "$dir/root/etc/apt/sources.list"
    {
        case $suite in
        bookworm | trixie)
            printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\n' "$mirror" "$suite" "$suite"
            printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\n' "$security" "$suite"
            ;;
        *) printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\n' "$mirror" "$suite" ;;
        esac
    } >"$dir/root/etc/apt/sources.list.d/debian.sources"
    case $suite in bookworm | trixie) ;; *)
        echo 'Acquire::Check-Valid-Until "false";' >"$dir/root/etc/apt/apt.conf.d/99ccbench-valid-until"
        ;;
    esac
    rm -rf "$dir/root/var/cache/apt/archives/"*.deb "$dir/root/var/lib/apt/lists/"*
    tar --numeric-owner -C "$dir/root" -cf "$dir/base.tar" . || die "tar of the $suite root failed"
    mv -f "$dir/base.tar" "$tar"
    ccb_unmount_under "$dir"
    rm -rf --one-file-system "$dir"
    trap - EXIT
    log "$suite root file system made in $(($(date +%s) - s)) s"
    echo "$tar"
}

# ccb_base_image SUITE TAG: the image TAG, imported (once) from SUITE's
# cached minbase tarball.  Call it with the lock held.
ccb_base_image() {
    local suite=$1 tag=$2 tar
    ccb_pm image exists "$tag" && return 0
    tar=$(ccb_base_tar "$suite")
    timeout 300 podman --runtime "$ccb_runtime" import -q --change 'CMD ["bash"]' \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        "$tar" "$tag" >/dev/null || die "podman import of $tar failed"
    log "base image $tag imported from $tar"
}

# ccb_drop_old ID: remove a previous image that a build left untagged, and
# its build-cache ancestors that nothing else uses (a rebuild after each
# source change would otherwise pile up ~10 MB each).  Stops at the first
# image that is tagged (the base, or one someone tagged) or still has
# children (shared with the new build).
ccb_drop_old() {
    local id=$1 parent
    while [[ -n "$id" ]]; do
        [[ "$(ccb_pm image inspect --format '{{len .RepoTags}}' "$id" 2>/dev/null)" == 0 ]] || return 0
        parent=$(ccb_pm image inspect --format '{{.Parent}}' "$id" 2>/dev/null) || return 0
        ccb_pm rmi "$id" >/dev/null 2>&1 || return 0
        id=$parent
    done
}
