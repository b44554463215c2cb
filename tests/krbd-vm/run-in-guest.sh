#!/usr/bin/env bash
# run-in-guest.sh - run a script inside a qemu guest that has the kernel rbd
# driver, against the cluster CEPH_CONF names, and return its output and
# exit status.
#
# usage: tests/krbd-vm/run-in-guest.sh [--timeout SECS] [--bind DIR]...
#                                      [--share DIR]... SCRIPT [ARG...]
#
# The guest runs Debian's linux-image-amd64 kernel (fetched once with apt
# and cached, see lib.sh) under qemu TCG, no KVM needed, with a busybox
# initramfs. It chroots into the host's root filesystem, shared read-only
# over 9p, so SCRIPT runs with the host's bash, ceph tools and the freshly
# built ccbench; /tmp, /run and /dev/shm are the guest's own tmpfs. SCRIPT
# (copied in) runs with bash in /tmp, with CEPH_CONF and these variables
# passed through when set: CCBENCH POOL CEPH_ARGS, plus those named in
# $VM_ENV. The directory of CEPH_CONF, of its keyring and of $CCBENCH are
# visible at their host path even under /tmp; --bind adds others.
# --share DIR: DIR (a host directory) is shared writable, at the same path
# in the guest (9p, no cache: each side sees the other's files at once),
# for a script that talks to the host while it runs (runner.sh's spool).
#
# Networking never leaves the host: qemu's user network with restrict=on
# and one guestfwd per mon/mgr/OSD port (discovered from the running
# cluster) to 127.0.0.1; in the guest, a relay on each of those loopback
# ports, since the maps advertise 127.0.0.1.
#
# The script's output is printed on stdout as it comes; the exit status is
# the script's, 124 when the timeout (default 240 s) hit, 125 when the
# harness itself failed (no kernel, no cluster, the guest did not boot).
# Whatever happens, no qemu, relay or mapping is left: qemu and the host-side
# relays run in their own process group, killed at the end; the guest
# unmaps whatever the script left mapped before it powers off (and says so:
# exit 126 then, unless the script failed already).
#
# Environment: CCB_KRBD_VM_CACHE (cache dir), CCB_KRBD_VM_MEM (MiB, 1024),
# CCB_KRBD_VM_SMP (2), CCB_KRBD_VM_CPU (qemu's -cpu model, max),
# CCB_KRBD_VM_LOG (also copy the serial console there).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

timeout_s=240
binds=()
shares=()
while [ $# -gt 0 ]; do
	case "$1" in
	--timeout) timeout_s=$2; shift 2 ;;
	--bind) binds+=("$2"); shift 2 ;;
	--share) shares+=("$(realpath "$2")"); shift 2 ;;
	-h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	--) shift; break ;;
	-*) kvm_die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || kvm_die "usage: $0 [--timeout SECS] [--bind DIR]... SCRIPT [ARG...]"
script=$1
shift
[ -r "$script" ] || kvm_die "$script: not readable"
[ -n "${CEPH_CONF:-}" ] && [ -r "$CEPH_CONF" ] || kvm_die "CEPH_CONF must name the cluster's ceph.conf"
[[ "$timeout_s" =~ ^[1-9][0-9]*$ ]] || kvm_die "--timeout: seconds expected"
for a in "$@"; do
	[[ "$a" =~ ^[A-Za-z0-9_./=:,+-]*$ ]] || kvm_die "argument '$a': only [A-Za-z0-9_./=:,+-] pass into the guest"
done
for t in qemu-system-x86_64 busybox cpio gzip modprobe depmod dpkg-deb apt-get flock timeout setsid python3 ceph; do
	command -v "$t" >/dev/null || kvm_die "$t not found (scripts/deps.sh installs qemu-system-x86, busybox-static, cpio, kmod)"
done
CEPH_CONF=$(realpath "$CEPH_CONF")
export CEPH_CONF

t0=$(date +%s)
kvm_kernel
kvm_log "kernel ready after $(($(date +%s) - t0))s"
ports=$(kvm_ports) || kvm_die "port discovery failed"
[ -n "$ports" ] || kvm_die "no cluster ports found"

# Host paths the guest must see under its own /tmp and /run.
keyring=$(ceph-conf -c "$CEPH_CONF" --name "${CEPH_NAME:-client.admin}" --lookup keyring 2>/dev/null | tr ',' '\n' | head -1 || true)
cands=("$(dirname "$CEPH_CONF")" "${binds[@]}")
[ -n "$keyring" ] && [ -e "$keyring" ] && cands+=("$(dirname "$(realpath "$keyring")")")
[ -n "${CCBENCH:-}" ] && cands+=("$(dirname "$(realpath "$CCBENCH")")")
vm_binds=""
for d in "${cands[@]}"; do
	d=$(realpath -m "$d")
	case "$d" in /tmp/* | /run/* | /dev/shm/*) ;; *) continue ;; esac
	[ -d "$d" ] || continue
	[[ "$d" =~ ^[A-Za-z0-9_./+-]+$ ]] || kvm_die "$d: path not passable into the guest"
	case " $vm_binds " in *" $d "*) ;; *) vm_binds+=" $d" ;; esac
done

work=$(mktemp -d /tmp/ccbench-krbd-vm.XXXXXX)
qpid=
cleanup() {
	# qemu, its guestfwd relays and timeout: one process group, ours.
	if [ -n "$qpid" ]; then
		kill -TERM -- "-$qpid" 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 -- "-$qpid" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL -- "-$qpid" 2>/dev/null
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Per run: /init, /ccb/env, /ccb/script, appended to the cached base
# (the kernel takes concatenated cpio archives).
mkdir -p "$work/r/ccb"
cp "$here/init" "$work/r/init"
chmod 755 "$work/r/init"
cp "$script" "$work/r/ccb/script"
{
	q() { printf "export %s='%s'\n" "$1" "${2//\'/\'\\\'\'}"; }
	q VM_PORTS "$(echo $ports)"
	q VM_BINDS "$vm_binds"
	# The guest stops the script 20 s before the host stops qemu.
	gt=$((timeout_s - 20))
	[ $gt -ge 10 ] || gt=10
	q VM_TIMEOUT "$gt"
	q VM_ARGS "$*"
	vm_shares=""
	for i in "${!shares[@]}"; do
		vm_shares+=" ccbshare$i:${shares[$i]}"
	done
	q VM_SHARES "$vm_shares"
	q PATH /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	q HOME /root
	q LANG C.UTF-8
	q CEPH_CONF "$CEPH_CONF"
	for v in CCBENCH POOL CEPH_ARGS ${VM_ENV:-}; do
		[ -n "${!v+x}" ] && q "$v" "${!v}"
	done
	q KRBD_VM 1
} >"$work/r/ccb/env"
(cd "$work/r" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) >"$work/run.cpio" ||
	kvm_die "cpio"
# An uncompressed archive must start 4-byte aligned: pad with zeroes,
# which the kernel skips.
{
	cat "$KVM_KDIR/base.cpio.gz"
	head -c $(((512 - $(stat -c %s "$KVM_KDIR/base.cpio.gz") % 512) % 512)) /dev/zero
	cat "$work/run.cpio"
} >"$work/initrd"

netdev=user,id=n0,restrict=on
for p in $ports; do
	netdev+=",guestfwd=tcp:10.0.2.100:$p-cmd:$(command -v busybox) nc 127.0.0.1 $p"
done
qemu=(qemu-system-x86_64 -accel tcg -cpu "${CCB_KRBD_VM_CPU:-max}" -smp "${CCB_KRBD_VM_SMP:-2}" -m "${CCB_KRBD_VM_MEM:-1024}"
	-nodefaults -display none -no-reboot -serial stdio -monitor none
	-kernel "$KVM_KDIR/vmlinuz" -initrd "$work/initrd"
	-append "console=ttyS0 quiet panic=-1 rdinit=/init"
	-netdev "$netdev" -device virtio-net-pci,netdev=n0
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap)
for i in "${!shares[@]}"; do
	[ -d "${shares[$i]}" ] && [[ "${shares[$i]}" =~ ^[A-Za-z0-9_./+-]+$ ]] ||
		kvm_die "--share ${shares[$i]}: not a directory, or not passable into the guest"
	qemu+=(-virtfs "local,path=${shares[$i]},mount_tag=ccbshare$i,security_model=none,multidevs=remap")
done

kvm_log "kernel $KVM_KV, ports $(echo $ports), binds${vm_binds:- none}; booting (limit ${timeout_s}s)"
# setsid: qemu, timeout and the relays qemu forks share one new process
# group, which cleanup() kills; timeout -k: qemu cannot outlive the limit.
setsid timeout -k 5 "$timeout_s" "${qemu[@]}" </dev/null >"$work/console" 2>"$work/qemu.err" &
qpid=$!
# Stream the script's lines (between the markers) as they come.
tail -n +1 -f --pid=$qpid "$work/console" 2>/dev/null |
	awk '{sub(/\r$/, "")} /^CCB-VM-BEGIN$/ {on=1; next} /^CCB-VM-END$/ {on=0; next} on || /^(krbd-vm-guest|dmesg): / {print; fflush()}' &
tpid=$!
wait $qpid
qrc=$?
wait $tpid 2>/dev/null
[ -n "${CCB_KRBD_VM_LOG:-}" ] && tr -d '\r' <"$work/console" >"$CCB_KRBD_VM_LOG"
rc=$(tr -d '\r' <"$work/console" | sed -n 's/^CCB-VM-EXIT \([0-9]*\)$/\1/p' | tail -1)
el=$(($(date +%s) - t0))
if [ -z "$rc" ]; then
	if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		kvm_log "timeout: the guest did not finish within ${timeout_s}s"
		rc=124
	else
		kvm_log "the guest ended without an exit status (qemu exit $qrc): last console lines:"
		tr -d '\r' <"$work/console" | tail -n 30 | sed 's/^/    /' >&2
		[ -s "$work/qemu.err" ] && sed 's/^/    qemu: /' "$work/qemu.err" >&2
		rc=125
	fi
fi
kvm_log "guest exit $rc after ${el}s"
exit "$rc"
