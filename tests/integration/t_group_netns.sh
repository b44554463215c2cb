# 16 members on their own addresses: every party in its own network
# namespace, joined by a bridge that lives in a namespace of its own too, so
# no packet of the test passes through the host's namespace or interfaces.
# A throwaway cluster (one OSD) listens on 10.77.0.1 in its namespace; 16
# members, each alone in a namespace with one address (10.77.0.11..26), run
# one light rados write as a group. The report must show: a start skew
# under 50 ms (the members' own measured starts), 16 distinct client
# addresses, the aggregate equal to the sum of the members' window
# bandwidth (within 0.5 %), and Jain's fairness index. Everything made
# (namespaces, veths, bridge, the cluster) is removed on every end, and
# leftovers of an earlier run of this test (its prefix, a dead pid) first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
N=16
P=ccbnt$$
NET=10.77.0
DIR=$PWD/nscluster

# Remove namespace $1 and whatever still runs in it (only this test's).
drop_ns() {
	local pid
	for pid in $(ip netns pids "$1" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
	ip netns delete "$1" 2>/dev/null || true
}
sweep() { # sweep PREFIX-REGEX: this test's namespaces whose test is gone (or all of ours)
	local ns owner
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "$1" || true); do
		owner=${ns#ccbnt}
		owner=${owner%%-*}
		if [ "$owner" = $$ ] || ! kill -0 "$owner" 2>/dev/null; then
			drop_ns "$ns"
		fi
	done
}
teardown() {
	[ -d "$DIR" ] && ip netns exec $P-c "$top/scripts/minicluster.sh" stop "$DIR" >/dev/null 2>&1 || true
	sweep "^$P-"
}
sweep '^ccbnt[0-9]+-'
on_exit teardown

ip netns add $P-br
ip -n $P-br link add br0 type bridge
ip -n $P-br link set br0 up
# One veth per party: its bridge end in the bridge's namespace, "eth0" in its own.
join() { # join NS IP
	ip netns add "$1"
	ip -n $P-br link add "p${1##*-}" type veth peer name eth0 netns "$1"
	ip -n $P-br link set "p${1##*-}" master br0 up
	ip -n "$1" addr add "$2/24" dev eth0
	ip -n "$1" link set eth0 up
	ip -n "$1" link set lo up
}
join $P-c $NET.1
for i in $(seq 1 $N); do join $P-m$i $NET.$((10 + i)); done

ip netns exec $P-c env MINICLUSTER_ADDR=$NET.1 "$top/scripts/minicluster.sh" start --osds 1 \
	--osd-mem 512M "$DIR" >cluster.out 2>cluster.err || {
	tail -5 cluster.err
	fail "the namespaced cluster did not start"
}
# The members' conf: the mon and the key, nothing of the cluster's own addresses.
{
	echo "[global]"
	grep -E '^\s*mon host' "$DIR/ceph.conf"
	echo "keyring = $DIR/keyring"
} >member.conf
grep -q "$NET.1:" member.conf || fail "the cluster does not listen on $NET.1: $(cat member.conf)"

G=gns$$
pids=()
for i in $(seq 1 $N); do
	ip netns exec $P-m$i timeout -k 5 90 "$CCBENCH" rados write -c member.conf -p rbd -d 3s -b 16K \
		-t 2 --group "$G" --members $N --group-timeout 60s -q -f json >m$i.json 2>m$i.err &
	pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=$?; done
[ "$rc" = 0 ] || {
	# The whole of a failed member's stderr (a sanitizer's report is long).
	for f in m*.err; do [ -s "$f" ] && { echo "== $f"; head -c 6000 "$f"; }; done >&2
	fail "a member exited $rc"
}
ip netns exec $P-m1 "$CCBENCH" group report "$G" -c member.conf -p rbd -f json >r.json ||
	fail "group report: exit $?"
python3 - r.json $N $NET <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
n, net = int(sys.argv[2]), sys.argv[3]
assert r["status"] == "complete", r["status"]
ms = r["members"]
assert len(ms) == n and all(m["state"] == "done" for m in ms), [m["state"] for m in ms]
assert r["start_skew_ms"] < 50, "start skew %.1f ms" % r["start_skew_ms"]
# Each member's address as the cluster saw it: "v2:IP:PORT/NONCE" or a vector.
ips = set()
for m in ms:
    a = m["addr"]
    ip = a.split("v2:")[-1].split(":")[0] if "v2:" in a else a.split(":")[0]
    assert ip.startswith(net + "."), (a, ip)
    ips.add(ip)
assert len(ips) == n, sorted(ips)
assert ips == {"%s.%d" % (net, 10 + i) for i in range(1, n + 1)}, sorted(ips)
agg = r["aggregate"]
s = sum(m["window_bandwidth_mib_s"] for m in ms)
assert agg["members"] == n
assert abs(agg["bandwidth_mib_s"] - s) <= 0.005 * s, (agg["bandwidth_mib_s"], s)
j = agg["jain_index"]
assert 1.0 / n <= j <= 1.0, j
print("note: %d members on %d addresses, start skew %.1f ms, aggregate %.1f MiB/s, Jain %.3f"
      % (n, len(ips), r["start_skew_ms"], agg["bandwidth_mib_s"], j))
PY
