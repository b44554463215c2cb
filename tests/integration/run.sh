#!/usr/bin/env bash
# Integration tests: start a throwaway cluster, run every t_*.sh against it,
# stop the cluster whatever happens. Tests are never skipped for want of a
# cluster: this script makes one.
#
# usage: tests/integration/run.sh [TEST_NAME_PATTERN]
#   CCBENCH=path/to/ccbench (default: build/ccbench)
# The cluster has an MDS and a CephFS, for the fs tests.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mds="--mds"
if [ "${1:-}" = "--mds" ]; then
	shift # the default; accepted for old callers
fi
pattern=${1:-}
export CCBENCH=${CCBENCH:-$top/build/ccbench}
[ -x "$CCBENCH" ] || { echo "run.sh: $CCBENCH not built" >&2; exit 2; }
CCBENCH=$(cd "$(dirname "$CCBENCH")" && pwd)/$(basename "$CCBENCH")

work=$(mktemp -d /tmp/ccbench-it.XXXXXX)
cluster=$work/cluster
stop_cluster() {
	"$top/scripts/minicluster.sh" stop "$cluster" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap stop_cluster EXIT
trap 'exit 130' INT TERM

echo "== starting throwaway cluster in $cluster" >&2
"$top/scripts/minicluster.sh" start $mds "$cluster" >/dev/null || { echo "run.sh: cluster did not start" >&2; exit 1; }
export CEPH_CONF=$cluster/ceph.conf
export POOL=ccbtest
export CLUSTER_DIR=$cluster
export WORK=$work
unset CEPH_ARGS
ceph --connect-timeout 10 osd pool create "$POOL" 8 >/dev/null 2>&1
ceph --connect-timeout 10 osd pool application enable "$POOL" rados >/dev/null 2>&1

passed=0
failed=0
failures=()
for t in "$here"/t_*.sh; do
	name=$(basename "$t" .sh)
	[ -n "$pattern" ] && [[ "$name" != *$pattern* ]] && continue
	log=$work/$name.log
	start=$(date +%s)
	if (cd "$work" && bash "$t") >"$log" 2>&1; then
		passed=$((passed + 1))
		echo "PASS $name ($(($(date +%s) - start)) s)"
	else
		failed=$((failed + 1))
		failures+=("$name")
		echo "FAIL $name ($(($(date +%s) - start)) s); last lines:"
		tail -25 "$log" | sed 's/^/    /'
	fi
done
echo "integration: $passed passed, $failed failed"
[ "$failed" = 0 ]
