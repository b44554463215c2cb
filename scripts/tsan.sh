#!/usr/bin/env bash
# ThreadSanitizer: a TSan build (-Werror) in build-tsan, the cmocka unit
# tests, then one short integration test per path (rados, rbd, krbd, fs)
# against a throwaway cluster that tests/integration/run.sh starts and stops.
# Any TSan report fails it, whether or not the test that ran ccbench noticed:
# halt_on_error=1 makes the process exit 66 at the first report, and every
# report is also written under a log directory that is checked at the end.
# Suppressions (library-internal frames only): tests/tsan.supp.
#
# usage: scripts/tsan.sh [INTEGRATION_TEST_PATTERN]
#   CCB_TSAN_BUILD=DIR   build directory (default: build-tsan)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

build=${CCB_TSAN_BUILD:-$top/build-tsan}
cmake -S "$top" -B "$build" -DCCB_TSAN=ON -DCCB_WERROR=ON >/dev/null
make -C "$build" -j"$(nproc)" --no-print-directory

logs=$(mktemp -d /tmp/ccbench-tsan.XXXXXX)
trap 'rm -rf "$logs"' EXIT
export TSAN_OPTIONS="suppressions=$top/tests/tsan.supp halt_on_error=1 exitcode=66 log_path=$logs/tsan"
# One short test per path. t_krbd_device reads a loop device (streams,
# O_DIRECT through io_uring, whose reaper thread hands slots back);
# t_krbd_map_fuse_loop maps an image through rbd-fuse + loop;
# t_fs_mount_faults runs the fs calls on worker threads through ceph-fuse,
# and abandons stuck ones (a monitor thread) when the OSDs freeze.
pattern=${1:-@(rados_write_seq_rand|rbd_layout|krbd_device|krbd_map_fuse_loop|fs_stream|fs_mount_faults)}

reports() {
	local f n=0
	for f in "$logs"/tsan.*; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		echo "== TSan report of pid ${f##*.}:" >&2
		cat "$f" >&2
	done
	[ "$n" = 0 ]
}

t0=$(date +%s)
rc=0
echo "== TSan unit tests" >&2
(cd "$build" && ctest -j"$(nproc)" --output-on-failure) || rc=1
reports || rc=1
echo "== TSan integration tests ($pattern)" >&2
CCB_IT_LANES=${CCB_IT_LANES:-2} CCBENCH="$build/ccbench" "$top/tests/integration/run.sh" "$pattern" || rc=1
reports || rc=1
echo "tsan: $(($(date +%s) - t0)) s, $([ "$rc" = 0 ] && echo clean || echo FAILED)" >&2
exit "$rc"
