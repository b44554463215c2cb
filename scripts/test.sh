#!/usr/bin/env bash
# All tests, from a fresh Debian 12 machine: packages, the formatting check,
# an ASan+UBSan build with -Werror, the cmocka unit tests, the same tests on
# the C fallback of the zero-copy calls (-DCCB_ZEROCOPY=OFF), the fuzz targets
# (bounded time each), then the integration tests against a throwaway
# cluster that tests/integration/run.sh starts and always stops (among them
# the container test and the real rbd driver in a qemu guest).
#
# usage: scripts/test.sh [INTEGRATION_TEST_PATTERN]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

"$top/scripts/deps.sh"

build=${CCB_TEST_BUILD:-$top/build-san}
cmake -S "$top" -B "$build" -DCCB_ASAN=ON -DCCB_UBSAN=ON -DCCB_WERROR=ON >/dev/null
make -C "$build" -j"$(nproc)" --no-print-directory

# librados keeps a few process-lifetime singletons; nothing of ours may leak.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Every stage runs, whatever an earlier one did: a failing stage must not
# hide the others' results. The exit status says whether all passed.
failed=()
stages=0
stage() {
	local name=$1
	shift
	stages=$((stages + 1))
	echo "== $name" >&2
	"$@" || failed+=("$name")
}
unit_tests() { (cd "$build" && ctest --output-on-failure); }
# The C fallback of zerocopy.h (-DCCB_ZEROCOPY=OFF) builds with the same
# warnings and passes the unit tests; no sanitizers, to keep it short.
fallback_build() {
	local b=${CCB_TEST_BUILD_NOZC:-$top/build-nozc}
	cmake -S "$top" -B "$b" -DCCB_ZEROCOPY=OFF -DCCB_WERROR=ON >/dev/null &&
		make -C "$b" -j"$(nproc)" --no-print-directory >/dev/null &&
		(cd "$b" && ctest --output-on-failure)
}

stage "formatting" "$top/scripts/format-check.sh"
stage "unit tests" unit_tests
stage "C fallback build (CCB_ZEROCOPY=OFF) and unit tests" fallback_build
stage "fuzzing" "$top/tests/fuzz/run.sh"
stage "integration tests" env CCBENCH="$build/ccbench" "$top/tests/integration/run.sh" "$@"
# TSan build: unit tests and one integration test per path
stage "TSan" "$top/scripts/tsan.sh"

((${#failed[@]} == 0)) || echo "test.sh: failed: ${failed[*]}" >&2
echo "stages: $((stages - ${#failed[@]})) passed, ${#failed[@]} failed"
((${#failed[@]} == 0))
