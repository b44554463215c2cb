#!/usr/bin/env bash
# All tests, from a fresh Debian 12 machine: packages, an ASan+UBSan build
# with -Werror, the cmocka unit tests, then the integration tests against a
# throwaway cluster that tests/integration/run.sh starts and always stops.
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

echo "== unit tests" >&2
(cd "$build" && ctest --output-on-failure)

echo "== integration tests" >&2
CCBENCH="$build/ccbench" "$top/tests/integration/run.sh" "$@"
"$top/scripts/tsan.sh" # TSan build: unit tests and one integration test per path
