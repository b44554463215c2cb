# The CephFS kernel client through ccbench (--mount-via kernel): a qemu
# guest (TCG, no KVM) boots Debian's kernel, which has the ceph module
# (this host's has none), and runs tests/krbd-vm/guest-fsmount.sh against
# this throwaway cluster. Counts and facts only, never speeds. A few
# minutes (the first run fetches the kernel, about 70 MB, cached).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/krbd-vm/lib.sh"
. "$(dirname "$0")/fsmount_lib.sh"
. "$(dirname "$0")/fs_lib.sh"
root_dirs_before

# qemu and its relays name this cluster's ports, which no other cluster on
# the machine has: other guests may run at the same time.
ports=$(kvm_ports) || fail "cannot list the cluster's ports"
[ -z "$(kvm_relays "$ports")" ] ||
	fail "qemu or relays of this cluster before the test: $(kvm_relays "$ports")"
timed "$top/tests/krbd-vm/run-in-guest.sh" --timeout 600 "$top/tests/krbd-vm/guest-fsmount.sh"
echo "note: guest: exit $RC after ${ELAPSED}s"
[ "$RC" = 0 ] || fail "in the guest: exit $RC"
# The guest's SIGKILL case leaves its run's directory, as any SIGKILL does.
left=$(new_run_dirs)
[ "$(echo "$left" | grep -c .)" = 1 ] || fail "run directories left: '$left' (expected the killed run's)"
rm -rf "${FSMNT:?}/$left" || fail "rm -rf $FSMNT/$left"
left=$(kvm_relays "$ports")
[ -z "$left" ] || fail "qemu or relays left: $left"
# Every kernel client closed its MDS session (none is left in the MDS).
timeout 30 ceph --connect-timeout 10 tell mds.0 client ls -f json >sessions.json 2>sessions.err ||
	fail "mds client ls: $(cat sessions.err)"
n=$(python3 -c 'import json, sys; print(sum(1 for s in json.load(open(sys.argv[1])) if s.get("client_metadata", {}).get("kernel_version")))' sessions.json) ||
	fail "mds client ls: $(cat sessions.json)"
[ "$n" = 0 ] || fail "$n kernel client session(s) left in the MDS: $(cat sessions.json)"
