#!/usr/bin/env bash
# The main job on a throwaway local cluster, from a fresh Debian 12 (Ceph
# 16.2), 13 (18.2) or testing (20.2) machine: the packages the demo needs
# (scripts/deps.sh --demo), build, cluster (unless -c / CEPH_CONF names
# one), a rados write / seq / rand round and the quick librbd readahead sweep
# (configs/quick.json), results on stdout, cluster stopped.
#
# usage: scripts/demo.sh [-c CEPH_CONF] [-p POOL]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
conf=${CEPH_CONF:-}
pool=""
while [ $# -gt 0 ]; do
	case $1 in
	-c | --conf) conf=$2; shift 2 ;;
	-p | --pool) pool=$2; shift 2 ;;
	-h | --help) sed -n '2,8p' "$0"; exit 0 ;;
	*) echo "demo.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done

"$top/scripts/deps.sh" --demo
cmake -S "$top" -B "$top/build" >/dev/null
make -C "$top/build" -j"$(nproc)" --no-print-directory >&2
ccbench=$top/build/ccbench

cluster=""
cleanup() { # the cluster, then the directory mktemp made for it
	[ -n "$cluster" ] || return 0
	"$top/scripts/minicluster.sh" stop "$cluster" >/dev/null 2>&1
	rm -rf "$(dirname "$cluster")"
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ -z "$conf" ]; then
	cluster=$(mktemp -d /tmp/ccbench-demo.XXXXXX)/cluster
	echo "demo: starting a throwaway cluster in $cluster" >&2
	"$top/scripts/minicluster.sh" start "$cluster" >/dev/null
	conf=$cluster/ceph.conf
	pool=${pool:-rbd}
else
	echo "demo: using the cluster of $conf" >&2
	pool=${pool:-rbd}
fi
export CEPH_CONF=$conf
run=demo-$$

# Every write step is bounded by bytes as well as time (whichever comes
# first): a quiet machine writes 1 GB/s to the throwaway cluster, a loaded
# one 50 MiB/s, and both must fit in it.
echo "== 4M object writes, 16 in flight, 10 s or 1 GiB (like rados bench write)"
"$ccbench" rados write -p "$pool" -d 10s --total 1G -t 16 -b 4M --run-name "$run" --no-cleanup
echo
echo "== the same from 4 clients at once (like 4 rados bench instances), 10 s or 1 GiB"
"$ccbench" rados write -p "$pool" -d 10s --total 1G -t 16 -b 4M --clients 4
echo
echo "== sequential reads of what was written"
"$ccbench" rados seq -p "$pool" --run-name "$run" -t 16
echo
echo "== random reads, 10 s"
"$ccbench" rados rand -p "$pool" --run-name "$run" -t 16 -d 10s
echo
"$ccbench" cleanup -p "$pool" --run-name "$run"
echo
out=${CCB_DEMO_OUT:-$(mktemp -d /tmp/ccbench-demo-out.XXXXXX)}
echo "== readahead sweep (configs/quick.json); JSON, CSV and SVG in $out"
"$ccbench" sweep "$top/configs/quick.json" -p "$pool" --json "$out/quick.json" \
	--csv "$out/quick.csv" --svg "$out/quick.svg"
