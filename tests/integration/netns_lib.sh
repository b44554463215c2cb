# Members on their own addresses (sourced by t_group_netns.sh and
# t_group_link_cut.sh after lib.sh): every party in its own network
# namespace, joined by a bridge that lives in a namespace of its own too,
# so no packet of the test passes through the host's namespace or
# interfaces. netns_up N NET starts a throwaway cluster (one OSD) on NET.1
# in namespace $P-c and N member namespaces $P-m1..$P-mN on NET.11.., and
# writes member.conf (the mon and the key, nothing of the cluster's own
# addresses). Everything made (namespaces, veths, bridge, the cluster) is
# removed on every end, and leftovers of an earlier run of such a test
# (prefix ccbnt, a dead pid) first.

P=ccbnt$$
NETNS_DIR=$PWD/nscluster
NETNS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# Remove namespace $1 and whatever still runs in it (only this test's).
drop_ns() {
	local pid
	for pid in $(ip netns pids "$1" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
	ip netns delete "$1" 2>/dev/null || true
}
sweep_ns() { # sweep_ns PREFIX-REGEX: such namespaces whose test is gone (or all of ours)
	local ns owner
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "$1" || true); do
		owner=${ns#ccbnt}
		owner=${owner%%-*}
		if [ "$owner" = $$ ] || ! kill -0 "$owner" 2>/dev/null; then
			drop_ns "$ns"
		fi
	done
}
netns_teardown() {
	[ -d "$NETNS_DIR" ] && ip netns exec $P-c "$NETNS_TOP/scripts/minicluster.sh" stop "$NETNS_DIR" \
		>/dev/null 2>&1 || true
	sweep_ns "^$P-"
}
# One veth per party: its bridge end in the bridge's namespace, "eth0" in its own.
netns_join() { # netns_join NS IP
	ip netns add "$1"
	ip -n $P-br link add "p${1##*-}" type veth peer name eth0 netns "$1"
	ip -n $P-br link set "p${1##*-}" master br0 up
	ip -n "$1" addr add "$2/24" dev eth0
	ip -n "$1" link set eth0 up
	ip -n "$1" link set lo up
}
netns_up() { # netns_up N NET
	local i
	sweep_ns '^ccbnt[0-9]+-'
	on_exit netns_teardown
	ip netns add $P-br
	ip -n $P-br link add br0 type bridge
	ip -n $P-br link set br0 up
	netns_join $P-c "$2.1"
	for i in $(seq 1 "$1"); do netns_join $P-m$i "$2.$((10 + i))"; done
	ip netns exec $P-c env MINICLUSTER_ADDR="$2.1" "$NETNS_TOP/scripts/minicluster.sh" start \
		--osds 1 --osd-mem 1G "$NETNS_DIR" >cluster.out 2>cluster.err || {
		tail -5 cluster.err
		fail "the namespaced cluster did not start"
	}
	{
		echo "[global]"
		grep -E '^\s*mon host' "$NETNS_DIR/ceph.conf"
		echo "keyring = $NETNS_DIR/keyring"
	} >member.conf
	grep -q "$2.1:" member.conf || fail "the cluster does not listen on $2.1: $(cat member.conf)"
}
