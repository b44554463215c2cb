#!/usr/bin/env bash
# Build ccbench's Debian package for one release, in that release's test
# image (scripts/release.sh image REL), against the release's own
# librados/librbd/libcephfs, and run lintian on it.
#
# usage: scripts/package.sh REL [OUTDIR]
#   REL     bookworm | trixie | forky
#   OUTDIR  where the .deb goes (default build-deb/REL in the checkout)
# Prints the .deb's path on stdout; progress, lintian's report and a
# summary line on stderr.
#
# Inside the container the checkout is copied to /tmp (dpkg-buildpackage
# writes beside its source tree, and the build must not touch the
# checkout), the build dependencies debian/control names are installed when
# the image lacks them (apt-get build-dep: debhelper, at the least), then
# `dpkg-buildpackage -us -uc -b` builds it (the unit tests run at build
# time) and lintian checks the .deb and the source package (`dpkg-source
# -b`, for debian/ itself) with --pedantic: an error or a warning fails the
# build; the info, pedantic and experimental tags each release's lintian
# gives are printed, and each is explained in debian/README.source.
# Time: ~2 min a release once the image exists (the build and its unit
# tests ~1 min on 2 shared cores; installing debhelper and lintian into the
# image's container, ~30-60 s, unless the image has them).
#
# Environment: CCB_RELEASE_SH  scripts/release.sh to use (default: the
# checkout's own); its CCB_RELEASE_TIMEOUT bounds the container (here
# default 1800 s).  DEB_BUILD_OPTIONS is passed on (nocheck: no unit tests
# at build time, for callers that have just run them in the same image).
# Exit status: 0 built and lintian clean, 1 a step failed, 2 bad usage.
set -euo pipefail
top=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
release_sh=${CCB_RELEASE_SH:-$top/scripts/release.sh}

log() { echo "package.sh: $*" >&2; }
case "${1:-}" in
-h | --help)
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
bookworm | trixie | forky) rel=$1 ;;
"")
	log "usage: scripts/package.sh REL [OUTDIR] (REL: bookworm, trixie, forky)"
	exit 2
	;;
*)
	log "unknown release '$1' (expected bookworm, trixie or forky)"
	exit 2
	;;
esac
(($# <= 2)) || {
	log "usage: scripts/package.sh REL [OUTDIR]"
	exit 2
}
out=${2:-$top/build-deb/$rel}
[[ -x "$release_sh" ]] || {
	log "no $release_sh (set CCB_RELEASE_SH to the release.sh that makes the release images)"
	exit 1
}
mkdir -p "$out"
out=$(cd "$out" && pwd)
[[ "$out" == "$top" || "$out" == "$top"/* || "$out" == /tmp/* ]] || {
	log "OUTDIR must be inside the checkout or /tmp (it is what the container sees): $out"
	exit 2
}
rm -f "$out"/ccbench_*.deb "$out"/lintian.txt

# What runs inside REL's test image.  $1: the checkout, $2: OUTDIR.
# shellcheck disable=SC2016 # expanded inside the container
inside='
set -euo pipefail
top=$1 out=$2
export DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes
log() { echo "package.sh (in $CCB_RELEASE): $*" >&2; }
version=$(sed -n "s/^project(ccbench VERSION \([0-9.]*\) .*/\1/p" "$top/CMakeLists.txt")
[[ -n "$version" ]] || { log "no project VERSION in CMakeLists.txt"; exit 1; }
work=$(mktemp -d /tmp/ccbench-deb.XXXXXX)
src=$work/ccbench-$version
mkdir "$src"
# The checkout as it stands, without its build trees, clusters and VCS.
(cd "$top" && tar --exclude-vcs --exclude="./build*" --exclude="./.cluster*" \
	--exclude="./obj-*" --exclude="./debian/ccbench" --exclude="./debian/.debhelper" \
	--exclude="./debian/tmp" -cf - .) | tar -C "$src" -xf -
cd "$src"
updated=0
apt_update() { ((updated)) || timeout 300 apt-get update -q >/dev/null; updated=1; }
if ! dpkg-checkbuilddeps 2>/dev/null; then
	log "installing the build dependencies (apt-get build-dep)"
	apt_update
	timeout 600 apt-get build-dep -y -q --no-install-recommends . >/dev/null
fi
if ! command -v lintian >/dev/null; then
	log "installing lintian"
	apt_update
	timeout 600 apt-get install -y -q --no-install-recommends lintian >/dev/null
fi
# The source package first, from the pristine copy: lintian reads debian/ there.
(cd "$work" && dpkg-source -b "ccbench-$version") >"$work/source.log" 2>&1 || { cat "$work/source.log" >&2; exit 1; }
s=$(date +%s)
if ! dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1; then
	tail -40 "$work/build.log" >&2
	log "dpkg-buildpackage failed"
	exit 1
fi
log "dpkg-buildpackage: $(grep -o "[0-9]*% tests passed.*" "$work/build.log" || echo "tests not run") ($(($(date +%s) - s)) s)"
deb=$(ls "$work"/ccbench_"$version"_*.deb)
rc=0
# Root is what this container has; lintian only warns about it.
lintian --pedantic -I -E --show-overrides --fail-on error,warning \
	"$deb" "$work/ccbench_$version.dsc" 2>&1 | grep -v "running with root privileges" |
	tee "$out/lintian.txt" >&2 || rc=${PIPESTATUS[0]}
((rc == 0)) || { log "lintian: an error or a warning (exit $rc)"; exit 1; }
cp "$deb" "$out/"
log "$(dpkg-deb -f "$deb" Package Version Architecture Depends | tr "\n" " ")"
echo "$out/$(basename "$deb")"
'

s=$(date +%s)
log "building the $rel package in its test image"
deb=$(CCB_RELEASE_TIMEOUT=${CCB_RELEASE_TIMEOUT:-1800} "$release_sh" run "$rel" -v "$top:$top" -w "$top" \
	-e "DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-}" -- \
	bash -c "$inside" package "$top" "$out") || {
	log "$rel: FAILED after $(($(date +%s) - s)) s"
	exit 1
}
[[ -f "$deb" ]] || {
	log "$rel: no package at '$deb'"
	exit 1
}
log "$rel: $(basename "$deb") built and lintian clean in $(($(date +%s) - s)) s"
echo "$deb"
