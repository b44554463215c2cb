#!/usr/bin/env bash
# ccbench installed as a user installs it, on one release:
#  1. scripts/package.sh builds REL's .deb in REL's test image (unit tests
#     at build time, lintian --pedantic clean);
#  2. a throwaway cluster of REL starts in REL's test image
#     (scripts/minicluster.sh, host network), in a directory of its own;
#  3. in REL's clean base image (`release.sh base REL`: a debootstrapped
#     minbase with nothing of ccbench), as root:
#       apt-get install man-db bash-completion    (a user's own tools)
#       apt-get install ./ccbench_*.deb           (its dependencies from the mirror)
#     and there: nothing of the test tools came along (no Ceph daemons,
#     cmocka, fio, qemu); `ccbench --version` says the package's version;
#     `man -w ccbench` finds ccbench(8), and man renders it without a
#     warning; bash-completion loads the completion by its name, `complete
#     -p ccbench` names its function, and that function completes
#     `ccbench rb` to `rbd`; `ccbench sweep quick --dry-run` finds the
#     shipped config and plans its 8 points with no cluster at all; a
#     3 s rados write against the cluster (its conf and keyring mounted
#     read-only) ends ok;
#  4. the run's objects are gone (rados ls in the cluster's container).
# One line of result at the end.  Everything it starts is stopped and
# removed whatever happens: the containers by name, the cluster by
# minicluster.sh stop, its directory.
#
# usage: tests/release/t_install.sh REL        (bookworm | trixie | forky)
# Time: ~3-4 min a release with its images cached (~2.5 min of it the
# package build); the clean install needs the Debian mirror.
# Environment: CCB_RELEASE_SH (default: the checkout's scripts/release.sh;
# the cluster's minicluster.sh is the one beside it), CCB_INSTALL_DEB (a
# .deb already built: skip step 1).
# Exit status: 0 passed, 1 failed, 2 bad usage.
set -euo pipefail
top=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
release_sh=${CCB_RELEASE_SH:-$top/scripts/release.sh}
rel_top=$(cd "$(dirname "$release_sh")/.." 2>/dev/null && pwd) || rel_top=$top
minicluster=$rel_top/scripts/minicluster.sh

log() { echo "t_install: $*" >&2; }
fail() {
	log "FAIL: $*"
	echo "install ${rel:-?}: FAILED: $*"
	exit 1
}
case "${1:-}" in
bookworm | trixie | forky) rel=$1 ;;
*)
	log "usage: tests/release/t_install.sh REL (bookworm, trixie or forky)"
	exit 2
	;;
esac
[[ -x "$release_sh" && -x "$minicluster" ]] ||
	fail "no $release_sh or $minicluster (CCB_RELEASE_SH names the release.sh to use)"

t0=$(date +%s)
work=$top/build-install/$rel.$$
cdir=$work/cluster
name=ccbench-install-$rel-$$
mkdir -p "$work"
cleanup() {
	local rc=$? i
	trap - EXIT INT TERM HUP
	# The clean container, then the cluster: its loop sees the stop file and
	# runs minicluster.sh stop; a container that does not end is removed.
	timeout 60 podman rm -f -t 2 "$name-clean" >/dev/null 2>&1 || true
	if [[ -n "${cluster_pid:-}" ]]; then
		touch "$work/stop"
		for ((i = 0; i < 60; i++)); do
			kill -0 "$cluster_pid" 2>/dev/null || break
			sleep 1
		done
		kill -TERM "$cluster_pid" 2>/dev/null || true
		wait "$cluster_pid" 2>/dev/null || true
	fi
	rm -rf --one-file-system "$work"
	rmdir "$top/build-install" 2>/dev/null || true
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# 0. The images (made or rebuilt here when missing or out of date, under
# release.sh's own bounds), so that the bounds below time only the steps.
s=$(date +%s)
"$release_sh" image "$rel" >/dev/null || fail "release.sh image $rel"
base=$("$release_sh" base "$rel") || fail "release.sh base $rel"
images_s=$(($(date +%s) - s))

# 1. The package.
s=$(date +%s)
if [[ -n "${CCB_INSTALL_DEB:-}" ]]; then
	deb=$(readlink -f "$CCB_INSTALL_DEB")
else
	deb=$(CCB_RELEASE_SH=$release_sh "$top/scripts/package.sh" "$rel" "$work/deb") ||
		fail "scripts/package.sh $rel"
fi
[[ -f "$deb" ]] || fail "no package: $deb"
version=$(dpkg-deb -f "$deb" Version)
build_s=$(($(date +%s) - s))
mkdir -p "$work/deb-in"
cp "$deb" "$work/deb-in/"

# 2. The cluster, in REL's test image, until $work/stop appears.
s=$(date +%s)
# It also lists the run's namespace when asked (a file "check"), with the
# release's own rados.
# shellcheck disable=SC2016 # expanded inside the container
CCB_RELEASE_TIMEOUT=900 "$release_sh" run "$rel" -v "$top:$top" -- bash -c '
	"$1" start --osd-mem 1G "$2" >/dev/null || exit 1
	touch "$3/up"
	for ((i = 0; i < 840; i++)); do
		[[ -e "$3/stop" ]] && break
		if [[ -e "$3/check" ]]; then
			rc=0
			timeout 60 rados -c "$2/ceph.conf" -p rbd -N ccbench ls >"$3/left" 2>&1 || rc=$?
			echo "$rc" >"$3/left.rc"
			rm -f "$3/check"
		fi
		sleep 1
	done
	"$1" stop "$2" >/dev/null' cluster "$minicluster" "$cdir" "$work" >"$work/cluster.log" 2>&1 &
cluster_pid=$!
for ((i = 0; i < 300; i++)); do
	[[ -e "$work/up" ]] && break
	kill -0 "$cluster_pid" 2>/dev/null || {
		tail -20 "$work/cluster.log" >&2
		fail "the $rel cluster did not start"
	}
	sleep 1
done
[[ -e "$work/up" ]] || fail "the $rel cluster did not start within 300 s"
cluster_s=$(($(date +%s) - s))

# 3. The clean system.
# shellcheck disable=SC2016 # expanded inside the container
inside='
set -euo pipefail
conf=$1 deb=$2 version=$3
export DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes
say() { echo "$*" >&2; }
die() { echo "in the clean $CCB_REL: $*" >&2; exit 1; }
# A dpkg path-exclude for the man pages (as docker images have) would make
# "man -w" prove nothing.
if grep -rqsE "path-exclude=?/usr/share/man" /etc/dpkg/dpkg.cfg.d; then
	die "/etc/dpkg/dpkg.cfg.d excludes /usr/share/man: the man page check would mean nothing"
fi
timeout 300 apt-get update -q >/dev/null
timeout 300 apt-get install -y -q man-db bash-completion >/dev/null
dpkg-query -W -f="\${Package}\n" | sort >/tmp/before
cd "$(dirname "$deb")"
timeout 600 apt-get install -y -q "./$(basename "$deb")" >/tmp/apt.log 2>&1 || { cat /tmp/apt.log >&2; die "apt-get install ./$(basename "$deb")"; }
# Nothing of the test tools came along.
for p in ceph-mon ceph-osd ceph-mgr ceph-mds libcmocka0 fio qemu-system-x86 rbd-fuse; do
	[[ "$(dpkg-query -W -f="\${Status}" "$p" 2>/dev/null)" != "install ok installed" ]] ||
		die "installing ccbench pulled in $p"
done
added=$(dpkg-query -W -f="\${Package}\n" | sort | comm -13 /tmp/before - | wc -l)

v=$(ccbench --version | head -n 1)
[[ "$v" == "ccbench $version"* ]] || die "ccbench --version says \"$v\", the package $version"

page=$(man -w ccbench) || die "man -w ccbench: no page"
[[ "$page" == /usr/share/man/man8/ccbench.8* ]] || die "man -w ccbench: $page"
MANWIDTH=80 man --warnings ccbench 2>/tmp/man.err | col -b >/tmp/man.txt
[[ ! -s /tmp/man.err ]] || { cat /tmp/man.err >&2; die "man ccbench: warnings"; }
grep -q "ccbench - measure what a Ceph client gets from a cluster" /tmp/man.txt || die "man ccbench: no NAME line"
grep -q "^OPTIONS" /tmp/man.txt && grep -q -- "--queue-depth" /tmp/man.txt || die "man ccbench: no OPTIONS"

# The completion as bash finds it: bash-completion loads it by the command
# name; complete -p names the function; the function completes "ccbench rb".
comp=$(bash -c "
	. /usr/share/bash-completion/bash_completion
	if declare -F _comp_load >/dev/null; then _comp_load ccbench; else _completion_loader ccbench; fi >/dev/null 2>&1 || true
	spec=\$(complete -p ccbench) || exit 3
	fn=\$(sed -n \"s/.* -F \\([^ ]*\\) .*/\\1/p\" <<<\"\$spec\")
	[[ -n \$fn ]] || exit 4
	COMP_WORDS=(ccbench rb); COMP_CWORD=1; COMP_LINE=\"ccbench rb\"; COMP_POINT=10
	\"\$fn\" ccbench rb ccbench
	echo \"\$spec|\${COMPREPLY[*]}\"") || die "completion: bash exited $?"
[[ "${comp#*|}" == rbd ]] || die "completion of \"ccbench rb\": \"$comp\""

plan=$(ccbench sweep quick --dry-run) || die "ccbench sweep quick --dry-run"
grep -q "^sweep quick (/usr/share/ccbench/configs/quick.json): rbd read, 8 points" <<<"$plan" ||
	die "sweep quick --dry-run: $(head -n 1 <<<"$plan")"

out=$(timeout 120 ccbench rados write -c "$conf" -p rbd -d 3s -b 64K -t 4 -q) || die "rados write: exit $?"
grep -qE "^status +ok" <<<"$out" || die "rados write: $(head -n 3 <<<"$out")"
bw=$(sed -n "s/^bandwidth *\([0-9.]*\) MiB\/s.*/\1/p" <<<"$out")
echo "ccbench $version (librados2 $(dpkg-query -W -f="\${Version}" librados2)): it and the $added packages it needs installed;" \
	"--version, man -w $page, completion \"rb\" -> ${comp#*|} (${comp%%|*}), sweep quick --dry-run," \
	"rados write ${bw:-?} MiB/s"
'
s=$(date +%s)
result=$(timeout 900 "$top/scripts/container.sh" run --rm --name "$name-clean" --network host \
	-e CCB_REL="$rel" -v "$work/deb-in:/mnt/ccbench-deb:ro" -v "$cdir:$cdir:ro" "$base" \
	bash -c "$inside" install "$cdir/ceph.conf" "/mnt/ccbench-deb/$(basename "$deb")" "$version") ||
	fail "the clean install or its checks (see above)"
install_s=$(($(date +%s) - s))

# 4. Nothing left in the cluster.
touch "$work/check"
for ((i = 0; i < 90; i++)); do
	[[ -e "$work/left.rc" ]] && break
	sleep 1
done
[[ -e "$work/left.rc" ]] || fail "rados ls after the run: no answer within 90 s"
[[ "$(cat "$work/left.rc")" == 0 ]] || fail "rados ls after the run: $(head -n 3 "$work/left")"
[[ ! -s "$work/left" ]] || fail "objects left after the rados write: $(head -n 3 "$work/left")"

echo "install $rel: ok: $result; images $images_s s, package $build_s s, cluster $cluster_s s, install and checks $install_s s, all $(($(date +%s) - t0)) s"
