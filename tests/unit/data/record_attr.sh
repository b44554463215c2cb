#!/usr/bin/env bash
# Record what the attribution unit tests read (tests/unit/test_pg_map.c,
# test_osd_perf.c, test_osd_ops.c) from a real throwaway cluster of one
# release, so that the parsers are tested on what each release really says.
#
# usage: tests/unit/data/record_attr.sh REL
#   with CEPH_CONF pointing at a scripts/minicluster.sh cluster (3 OSDs) that
#   nothing else uses; writes tests/unit/data/attr/REL/.
#   The host's release (Pacific): run it against any minicluster.  Reef and
#   Tentacle: inside their release image, e.g.
#     scripts/release.sh run trixie -- bash -c 'scripts/minicluster.sh start \
#       --osd-mem 512M /tmp/rec >/dev/null && CEPH_CONF=/tmp/rec/ceph.conf \
#       tests/unit/data/record_attr.sh reef; scripts/minicluster.sh stop /tmp/rec'
#
# What it does to the cluster (a throwaway one): makes pools attr-p3 (size 3,
# 8 PGs) and attr-p12 (size 1, 12 PGs: pg_num not a power of two), writes a
# few 4K objects into them with one replica OSD delayed (ms_inject_delay_type
# osd on the replica, `osd down` so that its connections are made again with
# the delay), puts the delay back, and removes the pools.
set -euo pipefail
rel=${1:?usage: record_attr.sh REL}
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$top/tests/unit/data/attr/$rel
mkdir -p "$out"
C=(ceph --connect-timeout 15)
pools_done=()
cleanup() {
	"${C[@]}" tell osd.1 config set ms_inject_delay_probability 0 >/dev/null 2>&1 || true
	"${C[@]}" tell osd.1 config set ms_inject_delay_max 0 >/dev/null 2>&1 || true
	"${C[@]}" tell osd.1 config unset ms_inject_delay_type >/dev/null 2>&1 || true
	"${C[@]}" config set mon mon_allow_pool_delete true >/dev/null 2>&1 || true
	for p in "${pools_done[@]}"; do
		"${C[@]}" osd pool rm "$p" "$p" --yes-i-really-really-mean-it >/dev/null 2>&1 || true
	done
}
trap cleanup EXIT

wait_clean() {
	for _ in $(seq 120); do
		if "${C[@]}" pg stat 2>/dev/null | grep -qE '^[0-9]+ pgs: [0-9]+ active\+clean;'; then
			return 0
		fi
		sleep 1
	done
	echo "record_attr.sh: PGs not clean after 120 s" >&2
	return 1
}

mkpool() { # NAME PGS SIZE
	"${C[@]}" osd pool create "$1" "$2" "$2" >/dev/null 2>&1
	pools_done+=("$1")
	"${C[@]}" osd pool set "$1" pg_autoscale_mode off >/dev/null 2>&1 || true
	"${C[@]}" osd pool set "$1" size "$3" --yes-i-really-mean-it >/dev/null 2>&1
	"${C[@]}" osd pool application enable "$1" rbd >/dev/null 2>&1
}
mkpool attr-p3 8 3
mkpool attr-p12 12 1
wait_clean

"${C[@]}" --version >"$out/version.txt"
# The pools' placement figures and the PG map, as the attribution reads them.
"${C[@]}" osd dump -f json | python3 -c '
import json, sys
d = json.load(sys.stdin)
keep = ("pool", "pool_name", "pg_num", "pg_placement_num", "object_hash", "size", "type")
print(json.dumps({"pools": [{k: p[k] for k in keep if k in p} for p in d["pools"]]}, indent=1))
' >"$out/osd_dump_pools.json"
"${C[@]}" pg map 3.0 -f json >"$out/pg_map_one.json" 2>/dev/null || true
p3=$("${C[@]}" osd pool ls detail -f json | python3 -c 'import json,sys; print([p["pool_id"] for p in json.load(sys.stdin) if p["pool_name"]=="attr-p3"][0])')

# The cluster's own answer for object names of both paths, in and out of a
# namespace: what the unit test's hash and stable_mod must agree with. The
# mgr's balancer may move a PG meanwhile (Tentacle's did once): the PG map
# is read before and after, and the answers kept only when both agree.
pg_brief() { "${C[@]}" pg dump pgs_brief -f json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
l = d["pg_stats"] if isinstance(d, dict) else d
print(json.dumps(sorted([(p["pgid"], p["acting"], p["acting_primary"]) for p in l])))'; }
for try in 1 2 3 4 5; do
	"${C[@]}" pg dump pgs_brief -f json 2>/dev/null >"$out/pgs_brief.json"
	before=$(pg_brief)
	{
		echo '['
		first=1
		for pool in attr-p3 attr-p12 rbd; do
			for i in $(seq 0 11); do
				for spec in "ccb-vm-4242-1765000000.$(printf %08d "$i")|ccbench" \
					"rbd_data.1f2e3d4c5b6a.$(printf %016x "$i")|" \
					"bench_$i|"; do
					name=${spec%|*} ns=${spec#*|}
					((first)) || echo ','
					first=0
					"${C[@]}" osd map "$pool" "$name" ${ns:+"$ns"} -f json
				done
			done
		done
		echo ']'
	} >"$out/osd_map.json"
	[[ "$(pg_brief)" == "$before" ]] && break
	echo "record_attr.sh: PGs moved while recording; again ($try)" >&2
	sleep 5
done

# The OSDs' counters before and after a short write and read load, and the
# slowest ops, with one replica (osd.1) of attr-p3 delayed.  An object
# whose primary is not osd.1 takes the writes, so osd.1 is only a replica.
obj=
for i in $(seq 0 200); do
	pr=$("${C[@]}" osd map attr-p3 "rec$i" -f json | python3 -c 'import json,sys; print(json.load(sys.stdin)["acting_primary"])')
	if [[ "$pr" != 1 ]]; then
		obj=rec$i
		primary=$pr
		break
	fi
done
[[ -n "$obj" ]] || { echo "record_attr.sh: no object off osd.1" >&2; exit 1; }
echo "{\"object\": \"$obj\", \"pool\": \"attr-p3\", \"pool_id\": $p3, \"primary\": $primary, \"slow_replica\": 1}" >"$out/replica_case.json"
"${C[@]}" tell osd.1 config set ms_inject_delay_type osd >/dev/null
"${C[@]}" tell osd.1 config set ms_inject_delay_max 0.05 >/dev/null
"${C[@]}" tell osd.1 config set ms_inject_delay_probability 1 >/dev/null
"${C[@]}" osd down 1 >/dev/null 2>&1
sleep 2
wait_clean
"${C[@]}" tell "osd.$primary" perf dump >"$out/perf_dump_before.json"
head -c 4096 /dev/urandom >"$out/.4k"
for k in $(seq 12); do rados -p attr-p3 put "$obj" "$out/.4k"; done
for k in $(seq 12); do rados -p attr-p3 get "$obj" "$out/.got"; done
rm -f "$out/.4k" "$out/.got"
"${C[@]}" tell "osd.$primary" perf dump >"$out/perf_dump_after.json"
for o in 0 1 2; do
	"${C[@]}" tell "osd.$o" dump_historic_ops_by_duration >"$out/historic_osd$o.json"
done
echo "record_attr.sh: recorded $rel into $out" >&2
