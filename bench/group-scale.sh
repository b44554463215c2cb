#!/usr/bin/env bash
# How a group scales with its members: for each size (default 4 16 64),
# start that many members of a light workload on this host (each its own
# process and cluster connections), then measure from the group object and
# the report:
#   - claim:   from the last registration to the start claim (someone saw
#              the N-th member and wrote "started"), in ms;
#   - start:   from the last registration to the planned start (the claim
#              plus the 2 s lead every member sleeps to), in ms;
#   - skew:    the members' measured starts, largest minus smallest, in ms;
#   - report:  the wall time of `ccbench group report NAME` (one read of
#              the group, one of its heartbeats, one per member result);
#   - object:  the group object's omap (keys and bytes) and the heartbeat
#              object's, which RADOS holds in one PG.
# One host runs every member, so the skew includes its CPU contention; on
# real deployments members are on their own hosts. Not part of the tests.
#
# usage: bench/group-scale.sh [N...]
#   CCBENCH=build/ccbench CEPH_CONF=... POOL=rbd DUR=3s
set -euo pipefail
ccbench=${CCBENCH:-$(dirname "$0")/../build/ccbench}
pool=${POOL:-rbd}
dur=${DUR:-3s}
sizes=("$@")
[ $# -gt 0 ] || sizes=(4 16 64)
work=$(mktemp -d)
groups=()
cleanup() {
	local g
	for g in "${groups[@]}"; do "$ccbench" group rm "$g" --group-pool "$pool" >/dev/null 2>&1 || true; done
	rm -rf "$work"
}
trap cleanup EXIT

printf '%-8s %9s %9s %9s %10s %12s %12s\n' members claim_ms start_ms skew_ms report_ms group_omap beat_omap
for n in "${sizes[@]}"; do
	g=gscale$$n$n
	groups+=("$g")
	pids=()
	for i in $(seq 1 "$n"); do
		"$ccbench" rados write -p "$pool" -d "$dur" -b 4K -t 1 --group "$g" --members "$n" \
			--group-timeout 300s -q -f json >"$work/$g.$i.json" 2>"$work/$g.$i.err" &
		pids+=($!)
	done
	bad=0
	for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
	# Measured anyway when they had stored their results (the report
	# says complete): a member that crashed in rados_shutdown on the way
	# out (see the note in docs/groups.md) still started and reported.
	[ "$bad" = 0 ] || echo "note: $bad of $n members exited non-zero" >&2
	t0=$(date +%s.%N)
	"$ccbench" group report "$g" --group-pool "$pool" -f json >"$work/$g.report.json"
	t1=$(date +%s.%N)
	/usr/bin/python3 - "$g" "$pool" "$work/$g.report.json" "$t0" "$t1" "$n" <<'PY'
import json, os, sys, rados
g, pool, rep, t0, t1, n = sys.argv[1:7]
r = json.load(open(rep))
c = rados.Rados(conffile=os.environ.get("CEPH_CONF", "/etc/ceph/ceph.conf"))
c.connect(timeout=30)
io = c.open_ioctx(pool)
io.set_namespace("ccbench-groups")
def omap(oid):
    with rados.ReadOpCtx() as op:
        it, _ = io.get_omap_vals(op, "", "", 100000)
        io.operate_read_op(op, oid)
        return {k: v for k, v in it}
grp = omap(g)
beats = omap(g + ".heartbeat")
io.close(); c.shutdown()
regs = [json.loads(v) for k, v in grp.items() if k.startswith("member.")]
started = json.loads(grp["started"])
last = max(x["registered_at"] for x in regs)
assert r["status"] == "complete", "group %s: %s" % (g, r["status"])
print("%-8s %9.1f %9.1f %9.1f %10.0f %6d/%-5d %6d/%-5d" % (
    n, (started["claimed_at"] - last) * 1e3, (started["start_realtime"] - last) * 1e3,
    r["start_skew_ms"], (float(t1) - float(t0)) * 1e3,
    len(grp), sum(len(v) for v in grp.values()) // 1024,
    len(beats), sum(len(v) for v in beats.values()) // 1024))
PY
	"$ccbench" group rm "$g" --group-pool "$pool" >/dev/null
done
echo "(group_omap, beat_omap: keys/KiB)"
