#!/usr/bin/env bash
# CI mode of the ccbench image: run a sweep config, write JSON, CSV and SVG
# to the results directory, and gate on a baseline when one is given.
#
#   docker run --rm -v $PWD/results:/results ccbench ci quick
#   docker run --rm --network host -v /etc/ceph:/etc/ceph:ro -v $PWD/results:/results \
#       -e BASELINE=/results/baseline.json ccbench ci readahead-librbd-vs-krbd -p rbd
#
# CONFIG is a path, or the name of a shipped config (quick, with or without
# .json: `ccbench sweep NAME` finds it in the package's configs, or in a
# build tree's). Further arguments go to `ccbench sweep` (-p POOL, --id ...).
# Environment:
#   CEPH_CONF      a mounted cluster's conf; without it (and without
#                  /etc/ceph/ceph.conf) a throwaway cluster is started here
#   RESULTS        output directory (default /results)
#   BASELINE       a previous result: exit 1 when a point regressed
#   TOLERANCE      for the baseline comparison (default 10%)
#   METRIC         bandwidth (default) or p99
# Exit status: the sweep's, else compare's (0 ok, 1 regression, 2 mismatch).
# shellcheck disable=SC2317 # stop_cluster only runs from the EXIT trap
set -euo pipefail
top=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
ccbench=${CCBENCH:-}
if [[ -z "$ccbench" ]]; then
	if command -v ccbench >/dev/null 2>&1; then ccbench=ccbench; else ccbench=$top/build/ccbench; fi
fi
log() { echo "ci: $*" >&2; }

[[ $# -ge 1 ]] || { log "usage: ci CONFIG [ccbench sweep options]"; exit 2; }
config=$1
shift
# No cluster given: one is started here, and its rbd pool used unless the
# arguments name a pool.
own_cluster=0
[[ -z "${CEPH_CONF:-}" && ! -f /etc/ceph/ceph.conf ]] && own_cluster=1
pool_args=()
if ((own_cluster)) && [[ " $* " != *" -p "* && " $* " != *" --pool"* ]]; then
	pool_args=(-p rbd)
fi
# The config and the options checked before any cluster starts: a dry run
# contacts nothing (an unknown name is refused, exit 2, with the shipped
# configs' names).
rc=0
"$ccbench" sweep "$config" --dry-run -q "${pool_args[@]}" "$@" >/dev/null || rc=$?
[[ $rc -eq 0 ]] || { log "config '$config' refused (exit $rc)"; exit "$rc"; }
name=$(basename "$config" .json)
results=${RESULTS:-/results}
mkdir -p "$results"

cluster=""
stop_cluster() { # the cluster, then the directory mktemp made for it
	[[ -n "$cluster" ]] || return 0
	"$top/scripts/minicluster.sh" stop "$cluster" >/dev/null 2>&1
	rm -rf "$(dirname "$cluster")"
	return 0
}
trap stop_cluster EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if ((own_cluster)); then
	cluster=$(mktemp -d /tmp/ccbench-ci.XXXXXX)/cluster
	log "no cluster given: starting a throwaway one in $cluster"
	# shellcheck disable=SC2086 # CCB_MINICLUSTER_ARGS is a list of options
	"$top/scripts/minicluster.sh" start ${CCB_MINICLUSTER_ARGS:-} "$cluster" >/dev/null
	export CEPH_CONF=$cluster/ceph.conf
fi

rc=0
"$ccbench" sweep "$config" --json "$results/$name.json" --csv "$results/$name.csv" \
	--svg "$results/$name.svg" "${pool_args[@]}" "$@" | tee "$results/$name.txt" || rc=${PIPESTATUS[0]}
if [[ $rc -ne 0 ]]; then
	log "sweep failed (exit $rc); partial results in $results"
	exit "$rc"
fi
if [[ -n "${BASELINE:-}" ]]; then
	log "comparing with $BASELINE"
	"$ccbench" compare "$BASELINE" "$results/$name.json" --tolerance "${TOLERANCE:-10%}" \
		--metric "${METRIC:-bandwidth}" | tee "$results/$name.compare.txt" || rc=${PIPESTATUS[0]}
fi
log "results in $results: $name.json $name.csv $name.svg $name.txt"
exit "$rc"
