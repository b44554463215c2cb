#!/usr/bin/env bash
# All tests, from a fresh Debian 12 machine: packages, the formatting check
# and the checks for circles and layers between source files
# (scripts/circles.py, scripts/layers.py), an ASan+UBSan build with
# -Werror, the cmocka unit tests, the fuzz targets (bounded time each, one
# per core), then the integration tests in three lanes, each against a
# throwaway cluster that tests/integration/run.sh starts and always stops
# (among them the container test and the real rbd driver in a qemu guest),
# TSan, and last the release stages, two at a time: for each Ceph release
# (Debian 12 / Ceph 16.2, Debian 13 / 18.2, Debian testing / 20.2), in that
# release's own image, a -Werror build (bookworm's is the C fallback of the
# zero-copy calls, -DCCB_ZEROCOPY=OFF), the unit tests and an integration
# subset against a throwaway cluster of that release (scripts/release.sh
# stage), then its .deb built and installed. The release images are made
# in the background from the start.
#
# usage: scripts/test.sh [--quick] [INTEGRATION_TEST_PATTERN]
#   The pattern, if given, selects the release stages' tests too.
#   --quick  the check between edits, within 5 minutes: the packages, the
#            formatting and circles, the ASan+UBSan build, the unit tests
#            and a smoke set of integration tests (one per path, the
#            output rules, bad input) against a throwaway cluster. CI runs
#            the full suite.
#   CCB_RELEASES="trixie forky"  the release stages to run (default: all)
#   CCB_RELEASE_JOBS=N  release stages run at once (default 2; 1 to 3)
#   CCB_IT_LANES=N  integration lanes, each with a cluster (default 3, --quick 2; 1 to 4)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
quick=0
if [ "${1:-}" = "--quick" ]; then
	quick=1
	shift
fi
case "${1:-}" in
-*) echo "test.sh: unknown option '$1' (usage: scripts/test.sh [--quick] [PATTERN])" >&2; exit 2 ;;
esac
[[ "${CCB_RELEASE_JOBS:-2}" =~ ^[1-3]$ ]] || {
	echo "test.sh: CCB_RELEASE_JOBS must be 1 to 3 (release stages at once), not '$CCB_RELEASE_JOBS'" >&2
	exit 2
}
# The smoke set of --quick: a write and read of each path, the output
# rules, and bad input refused before the cluster.
quick_tests='@(rados_write_seq_rand|rados_bad_input|rbd_layout|krbd_device|fs_stream|output_safety)'

"$top/scripts/deps.sh"

# The images of the later stages (each release's test and base image, the
# container test's Debian base) are made in the background from here on:
# on a fresh machine that is minutes of downloads and package unpacking,
# which then overlap the build, fuzzing and the integration tests instead
# of adding to them. The stages that use an image wait for it through the
# image lock (scripts/image-lib.sh) and build it themselves if this failed;
# its log is shown only then.
prefetch_log=""
if ((!quick)); then
	prefetch_log=$(mktemp /tmp/ccbench-prefetch.XXXXXX)
	(
		for rel in ${CCB_RELEASES:-bookworm trixie forky}; do
			"$top/scripts/release.sh" image "$rel" && "$top/scripts/release.sh" base "$rel" || exit 1
		done
	) >"$prefetch_log" 2>&1 &
	prefetch_pid=$!
fi

build=${CCB_TEST_BUILD:-$top/build-san}
cmake -S "$top" -B "$build" -DCCB_ASAN=ON -DCCB_UBSAN=ON -DCCB_WERROR=ON >/dev/null
make -C "$build" -j"$(nproc)" --no-print-directory

# librados keeps a few process-lifetime singletons; nothing of ours may leak.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Every stage runs, whatever an earlier one did: a failing stage must not
# hide the others' results. The exit status says whether all passed.
# Each stage's time goes into the summary: CI time is shared, and a
# stage that grows should show which one it is.
failed=()
stages=0
times=()
stage() {
	local name=$1 t0=$SECONDS rc=0
	shift
	stages=$((stages + 1))
	echo "== $name" >&2
	"$@" || rc=$?
	((rc == 0)) || failed+=("$name")
	times+=("$(printf '%5d s  %s  %s' $((SECONDS - t0)) "$( ((rc == 0)) && echo passed || echo FAILED)" "$name")")
}
# The closing lines: each stage's time, the whole, and the verdict.
summary() {
	printf '%s\n' "${times[@]}"
	printf '%5d s  in all%s\n' "$SECONDS" "${1:-}"
	((${#failed[@]} == 0)) || echo "test.sh: failed: ${failed[*]}" >&2
	echo "stages: $((stages - ${#failed[@]})) passed, ${#failed[@]} failed"
	((${#failed[@]} == 0))
}
unit_tests() { (cd "$build" && ctest -j"$(nproc)" --output-on-failure); }
# The lint stage: the formatting, then no circle between the core
# library's files (scripts/circles.py, on the build above: the library's
# members, exactly this build's objects; CMakeFiles/ may keep a stale one
# of a renamed file), then no call from a folder up into a higher one
# (scripts/layers.py), then no `| grep -q` in an integration test (under
# pipefail it fails when the writer has more lines after the match: gq in
# tests/integration/lib.sh reads to the end). All run, whatever the first
# says.
lint() {
	local rc=0
	"$top/scripts/format-check.sh" || rc=1
	python3 "$top/scripts/circles.py" "$build/libccbcore.a" || rc=1
	python3 "$top/scripts/layers.py" "$build" || rc=1
	if grep -nE '^[^#]*\|[[:space:]]*grep[[:space:]]+-q' "$top"/tests/integration/*.sh; then
		echo "lint: '| grep -q' above, in tests run under pipefail: use gq (tests/integration/lib.sh)" >&2
		rc=1
	fi
	return "$rc"
}
stage "formatting and file circles" lint
stage "unit tests" unit_tests
if ((quick)); then
	stage "integration smoke tests" env CCB_IT_LANES="${CCB_IT_LANES:-2}" CCBENCH="$build/ccbench" \
		"$top/tests/integration/run.sh" "${1:-$quick_tests}"
	summary " (--quick; CI runs the full suite)"
	exit $?
fi
stage "fuzzing" "$top/tests/fuzz/run.sh"
stage "integration tests" env CCB_IT_LANES="${CCB_IT_LANES:-3}" CCBENCH="$build/ccbench" \
	"$top/tests/integration/run.sh" "$@"
# TSan build: unit tests and one integration test per path
stage "TSan" "$top/scripts/tsan.sh"
# One stage per release; a failing release does not stop the others.
# Each: the stage in the release's image (-Werror build, unit tests, the
# integration subset), then, on a full run, its .deb built there and
# installed into a clean system of the release (tests/release/t_install.sh;
# nocheck: the stage has just run the unit tests in the same image).
release_stage() {
	local rel=$1 rc=0
	shift
	"$top/scripts/release.sh" stage "$rel" "$@" || rc=1
	if (($# == 0)); then
		# The package's build is a compiler too: under the stages' lock.
		DEB_BUILD_OPTIONS=nocheck flock "$CCB_RELEASE_LOCK" \
			"$top/tests/release/t_install.sh" "$rel" || rc=1
	fi
	return "$rc"
}
if ! wait "$prefetch_pid"; then
	echo "test.sh: making the release images in the background failed; each stage tries again:" >&2
	tail -20 "$prefetch_log" >&2
fi
rm -f "$prefetch_log"
# The release stages run two at a time (CCB_RELEASE_JOBS): most of a stage
# is its clusters' waiting, and two side by side take about 70 % of their
# sum (726 s against 1036 s, CI of 2026-12-06). Each holds CCB_RELEASE_LOCK while it compiles and runs its unit tests
# (one stage's compiler never beside another's timed tests). A stage's
# output is kept in its log and shown whole when the stage ends, so that
# the two do not interleave; its time and verdict count as any stage's.
release_stages() {
	local jobs=${CCB_RELEASE_JOBS:-2} dir rel rc secs j i t0=$SECONDS
	local -a rels
	# The long stages first (trixie's and forky's subsets, 6 to 7 minutes
	# alone), bookworm's two tests after the first to end.
	read -ra rels <<<"${CCB_RELEASES:-trixie forky bookworm}"
	dir=$(mktemp -d "$top/build-releases.XXXXXX") # in the checkout: the containers see it
	# shellcheck disable=SC2064 # dir is fixed now
	trap "rm -rf '$dir'" EXIT
	export CCB_RELEASE_LOCK=$dir/lock
	: >"$CCB_RELEASE_LOCK"
	for ((j = 0; j < jobs; j++)); do
		(
			for ((i = j; i < ${#rels[@]}; i += jobs)); do
				rel=${rels[i]} rc=0 secs=$SECONDS
				release_stage "$rel" "$@" >"$dir/$rel.log" 2>&1 || rc=$?
				echo "$rc $((SECONDS - secs))" >"$dir/$rel.rc"
				{
					flock 8
					echo "== release $rel"
					cat "$dir/$rel.log"
				} 8>"$dir/out.lock" >&2
			done
		) &
	done
	wait
	for rel in "${rels[@]}"; do
		rc=1 secs=0
		[[ -f "$dir/$rel.rc" ]] && read -r rc secs <"$dir/$rel.rc"
		stages=$((stages + 1))
		((rc == 0)) || failed+=("release $rel")
		times+=("$(printf '%5d s  %s  %s' "$secs" "$( ((rc == 0)) && echo passed || echo FAILED)" "release $rel")")
	done
	times+=("$(printf '%5d s  %s' $((SECONDS - t0)) "the release stages, $jobs at a time (wall clock)")")
	rm -rf "$dir"
}
release_stages "$@"

summary
