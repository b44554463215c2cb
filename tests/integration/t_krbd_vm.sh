# The kernel path against the real rbd driver: a qemu guest (TCG, no KVM)
# boots Debian's kernel, which has rbd.ko, and runs
# tests/krbd-vm/guest-krbd.sh against this throwaway cluster. Counts only,
# never speeds. The first run fetches the kernel (about 70 MB, cached).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

# The image is written from the host (natively, fast); the guest only reads.
img=vm$$
krbd_image "$img" 64M
cleanup() {
	rbd rm "rbd/$img" >/dev/null 2>&1 || true
}
on_exit cleanup

# qemu and its guestfwd relays name this cluster's ports ("nc 127.0.0.1
# PORT"), which no other cluster on the machine has: other tests (and other
# people's guests) may run qemu at the same time.
. "$top/tests/krbd-vm/lib.sh"
ports=$(kvm_ports) || fail "cannot list the cluster's ports"
[ -z "$(kvm_relays "$ports")" ] ||
	fail "qemu or relays of this cluster before the test: $(kvm_relays "$ports")"
timed "$top/tests/krbd-vm/run-in-guest.sh" --timeout 420 "$top/tests/krbd-vm/guest-krbd.sh" "rbd/$img"
echo "guest: exit $RC after ${ELAPSED}s"
[ "$RC" = 0 ] || fail "in the guest: exit $RC"

# Nothing of the harness is left on the host: no qemu, no relay.
left=$(kvm_relays "$ports")
[ -z "$left" ] || fail "qemu or relays left: $left"
# The image has no watchers: every kernel client let go.
w=$(rbd status "rbd/$img" 2>/dev/null | grep -c "watcher=" || true)
[ "$w" = 0 ] || fail "rbd/$img still has $w watcher(s): $(rbd status "rbd/$img")"
