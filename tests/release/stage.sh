#!/usr/bin/env bash
# One release's stage of scripts/test.sh, run inside that release's image
# by `scripts/release.sh stage REL [PATTERN]` (the checkout is mounted at
# its own path): ccbench built with -Werror against the release's own
# librados/librbd/libcephfs (in build-rel-REL, so that the host's builds are
# not touched), the cmocka unit tests, then tests/integration/run.sh with
# PATTERN against a throwaway cluster of the same release that run.sh
# starts inside the container and always stops.
#
# The default PATTERN is the release subset (for trixie and forky; bookworm
# runs two of them, see below): one short test for each thing a release can
# change under ccbench:
#   rados_write_seq_rand  rados write / seq / rand, cleanup
#   rbd_readahead         librbd read with readahead under simulated latency
#   rbd_layout            rbd write (orders, striping) and read, layout read back
#   krbd_map_fuse_loop    krbd: an image mapped through rbd-fuse + loop
#   fs_stream, fs_meta    CephFS write / read (layouts checked via ceph-fuse), metadata
#   sweep_compare         a sweep, report, compare (and its bad configs)
#   group_start           a group (three members) and its report
#   group_conflict        a group of two: a conflicting member, a withdrawal
#   explain_paths         cluster_state at start and end, explain on a healthy cluster
#   rados_osd_down        fault: an OSD stopped mid-run
#   rados_quota           fault: a pool over quota
#   rados_signals         fault: SIGINT / SIGTERM
#   msgr2_only            a msgr2-only mon (minicluster.sh --msgr2-only)
#   msgr2_paths           every path and the kernel map's options against it
#   releases              results name the client's and the cluster's releases
#   explain_scheduler     the OSD scheduler (mClock profile) read and explained
#   krbd_map_release      what `rbd device map` asks of the driver on the release
#   state_safety          the state directory's rules, and the cluster copies of
#                         crash records through the mon's config-key (about 20 s)
#   capacity_sched        a capacity search against a real server-side limit: the
#                         mClock custom profile's client limit where the release
#                         has it (Reef, Tentacle), an injected delay where not
#   ec_pools              rbd and rados on an EC 2+1 data pool: the pools in the
#                         result, space used, explain's EC lines, FastEC where
#                         the release has it (Tentacle), degraded reads
#   group_lost_member     a member killed mid-run: its heartbeats (omap, aio)
#                         name it lost, the report exits 3
#   fault_kill            an OSD killed mid-run through --fault exec: with undo:
#                         restarting it: the pause against the grace, the phases,
#                         the open loop's response time (issue 42)
#   osd_attribution       where the time went: one OSD made slow (its client
#                         messages delayed) named by rados write, rbd randread
#                         and a capacity search; per-OSD counts are the OSDs'
#                         own (perf dump, whose names differ by release)
# run.sh checks after each test that nothing was left behind.
#
# usage: tests/release/stage.sh [PATTERN]   (CCB_RELEASE names the release;
#        CCB_RELEASE_LOCK, if set, a lock file the build and unit tests hold)
# Prints one line per step and a summary line; exit 0 only if all passed.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
rel=${CCB_RELEASE:-}
[[ -n "$rel" ]] || {
	echo "stage.sh: run through scripts/release.sh stage REL (CCB_RELEASE is not set)" >&2
	exit 2
}
SUBSET=(rados_write_seq_rand rbd_readahead rbd_layout krbd_map_fuse_loop fs_stream fs_meta
	sweep_compare group_start group_conflict explain_paths rados_osd_down rados_quota rados_signals
	msgr2_only msgr2_paths releases explain_scheduler krbd_map_release state_safety
	capacity_sched ec_pools group_lost_member fault_kill osd_attribution)
# bookworm is the host's own release: test.sh's integration stage has just
# run every test there (ASan build), the subset among them.  Its release
# stage shows that a fresh bookworm builds (-Werror, without sanitizers)
# and runs the cluster from its image; two tests (rados, and librbd, which
# needs the OSDs' object classes) say that, in about a minute.
# Its build is also the C fallback of zerocopy.h (-DCCB_ZEROCOPY=OFF: the
# C calls instead of src/paths/zerocopy.cc), so that the fallback builds with
# -Werror, passes the unit tests and moves real data against a cluster,
# with no build of its own on the host.
[[ "$rel" != bookworm ]] || SUBSET=(rados_write_seq_rand rbd_readahead)
cmake_args=(-DCCB_WERROR=ON)
[[ "$rel" != bookworm ]] || cmake_args+=(-DCCB_ZEROCOPY=OFF)
# Tests of the subset that cannot pass where a release's own packages are
# broken, named in the output with the defect's cause: none today (ccbench
# leaves out rbd-fuse's -p for pool rbd, which libfuse >= 3.17 builds of
# rbd-fuse, trixie's and forky's, crash on; see docs/releases.md).
not_run=()
not_run_why=()
subset=()
for t in "${SUBSET[@]}"; do
	[[ " ${not_run[*]} " == *" $t "* ]] || subset+=("$t")
done
pattern=${1:-@($(IFS='|'; echo "${subset[*]}"))}
build=$top/build-rel-$rel

failed=()
# step NAME CMD...: run one step, say how it went and how long it took.
step() {
	local name=$1 s rc=0
	shift
	s=$(date +%s)
	echo "== $rel: $name" >&2
	"$@" || rc=$?
	((rc == 0)) || failed+=("$name")
	echo "$rel: $name: $( ((rc == 0)) && echo passed || echo "FAILED (exit $rc)") in $(($(date +%s) - s)) s" >&2
	return "$rc"
}
compile() {
	cmake -S "$top" -B "$build" "${cmake_args[@]}" >/dev/null &&
		make -C "$build" -j"$(nproc)" --no-print-directory >/dev/null
}
unit() { (cd "$build" && ctest -j"$(nproc)" --output-on-failure); }

# The steps run in a function called on the last line, with exit: once
# they run, bash reads nothing more of this file, so that editing it (in the
# checkout the host shares) cannot change a stage midway.
main() {
ceph --version >&2
gcc --version | head -n 1 >&2
# CCB_RELEASE_LOCK (test.sh runs two release stages at once): the build and
# the unit tests hold it, so that one stage's compiler never runs beside
# another's timed unit tests (the open loop's schedule, unit_openloop).
if [[ -n "${CCB_RELEASE_LOCK:-}" ]]; then
	exec 9>>"$CCB_RELEASE_LOCK"
	flock 9
fi
if step "build (-Werror)" compile; then
	step "unit tests" unit
	exec 9>&- # the lock's end (a failed build's comes with the stage's)
	step "integration ($pattern)" env CCB_IT_OSD_MEM="${CCB_IT_OSD_MEM:-}" CCBENCH="$build/ccbench" \
		CCB_IT_LANES="${CCB_IT_LANES:-2}" \
		"$top/tests/integration/run.sh" "$pattern"
fi
((${#not_run[@]} == 0)) ||
	echo "$rel: NOT RUN: ${not_run[*]}: ${not_run_why[*]}" >&2
((${#failed[@]} == 0)) || echo "$rel: failed: ${failed[*]}" >&2
((${#failed[@]} == 0))
}
main; exit
