# Helpers of the krbd-vm harness (sourced by run-in-guest.sh): the kernel
# and its modules fetched from Debian and cached, the base initramfs, and
# the ports of the running cluster that the guest must reach (mons, mgr,
# OSDs, and the MDS for the CephFS clients).
#
# Cache: $CCB_KRBD_VM_CACHE, else /var/cache/ccbench-krbd-vm as root, else
# ${XDG_CACHE_HOME:-~/.cache}/ccbench-krbd-vm. One directory per kernel
# version (KV) and module list, holding vmlinuz, the modules the guest
# loads, their load order and base.cpio.gz (busybox + modules). Everything
# else is per run.

kvm_log() { echo "krbd-vm: $*" >&2; }
kvm_die() {
	kvm_log "error: $*"
	exit 125
}

kvm_cache_dir() {
	if [ -n "${CCB_KRBD_VM_CACHE:-}" ]; then
		echo "$CCB_KRBD_VM_CACHE"
	elif [ "$(id -u)" = 0 ]; then
		echo /var/cache/ccbench-krbd-vm
	else
		echo "${XDG_CACHE_HOME:-$HOME/.cache}/ccbench-krbd-vm"
	fi
}

# The modules the guest loads, in the order modprobe --show-depends gives.
# crc32c-intel may fail under TCG (no SSE4.2 emulated); crc32c_generic
# follows it, so that failure is harmless. ceph (with netfs and fscache)
# is the CephFS kernel client, fuse what ceph-fuse needs.
KVM_MODULES="rbd ceph fuse virtio_pci virtio_net 9pnet_virtio 9p"

# kvm_kernel_pkg: the versioned package linux-image-amd64 depends on
# (linux-image-6.1.0-57-amd64), from apt's lists (updated once if empty).
kvm_kernel_pkg() {
	local pkg
	local memo
	if [ -n "${CCB_KRBD_VM_KERNEL_PKG:-}" ]; then
		echo "$CCB_KRBD_VM_KERNEL_PKG"
		return
	fi
	# apt-cache takes seconds on a busy machine: remember its answer until
	# the apt lists change.
	memo=$(kvm_cache_dir)/kernel-pkg
	if [ -s "$memo" ] && [ "$memo" -nt /var/lib/apt/lists ]; then
		cat "$memo"
		return
	fi
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -1)
	if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then
		kvm_log "apt-get update (no apt lists for linux-image-amd64)"
		apt-get update -q >&2 || true
		pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
			sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -1)
	fi
	[ -n "$pkg" ] || kvm_die "cannot resolve linux-image-amd64 with apt-cache (run apt-get update)"
	echo "$pkg" >"$memo.tmp" 2>/dev/null && mv "$memo.tmp" "$memo"
	echo "$pkg"
}

# kvm_kernel: sets KVM_KV and KVM_KDIR (the cache entry), fetching and
# preparing it on first use. Concurrent callers serialize on a lock.
kvm_kernel() {
	local cache pkg tmp kv m deps f
	cache=$(kvm_cache_dir)
	mkdir -p "$cache" || kvm_die "mkdir $cache"
	pkg=$(kvm_kernel_pkg) || exit 125
	KVM_KV=${pkg#linux-image-}
	# One entry per kernel and module list: a guest of another list
	# (another branch, a run in progress) keeps its own.
	KVM_KDIR=$cache/$KVM_KV-$(echo "$KVM_MODULES" | md5sum | cut -c1-8)
	[ -f "$KVM_KDIR/ready" ] && return 0
	exec 8>"$cache/.lock"
	flock 8
	if [ -f "$KVM_KDIR/ready" ]; then
		exec 8>&-
		return 0
	fi
	kvm_log "fetching $pkg into $KVM_KDIR (once; about 70 MB)"
	tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
	(cd "$tmp" && apt-get download "$pkg" >&2 2>/dev/null) ||
		(cd "$tmp" && apt-get download "$pkg" >&2) || {
		rm -rf "$tmp"
		kvm_die "apt-get download $pkg failed"
	}
	dpkg-deb -x "$tmp"/*.deb "$tmp/x" || {
		rm -rf "$tmp"
		kvm_die "dpkg-deb -x $pkg failed"
	}
	kv=$KVM_KV
	depmod -b "$tmp/x" "$kv" || {
		rm -rf "$tmp"
		kvm_die "depmod -b $tmp/x $kv failed"
	}
	rm -rf "$KVM_KDIR"
	mkdir -p "$KVM_KDIR/root/lib/modules" "$KVM_KDIR/root/bin"
	cp "$tmp/x/boot/vmlinuz-$kv" "$KVM_KDIR/vmlinuz"
	: >"$KVM_KDIR/root/modules.order"
	for m in $KVM_MODULES; do
		deps=$(modprobe -d "$tmp/x" -S "$kv" --show-depends "$m" | awk '$1 == "insmod" {print $2}') ||
			kvm_die "modprobe --show-depends $m"
		for f in $deps; do
			grep -qx "$(basename "$f")" "$KVM_KDIR/root/modules.order" && continue
			cp "$f" "$KVM_KDIR/root/lib/modules/"
			basename "$f" >>"$KVM_KDIR/root/modules.order"
		done
	done
	rm -rf "$tmp"
	# busybox-static and its applets.
	cp "$(command -v busybox)" "$KVM_KDIR/root/bin/busybox" || kvm_die "busybox (busybox-static) not found"
	file -L "$KVM_KDIR/root/bin/busybox" 2>/dev/null | grep -q dynamic &&
		kvm_die "$(command -v busybox) is dynamically linked; install busybox-static"
	for a in $("$KVM_KDIR/root/bin/busybox" --list); do
		[ "$a" = busybox ] || ln -sf busybox "$KVM_KDIR/root/bin/$a"
	done
	mkdir -p "$KVM_KDIR/root/"{proc,sys,dev,newroot,hostall,tmp}
	(cd "$KVM_KDIR/root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) |
		gzip -1 >"$KVM_KDIR/base.cpio.gz" || kvm_die "cpio"
	touch "$KVM_KDIR/ready"
	exec 8>&-
	kvm_log "kernel $kv ready: $(tr '\n' ' ' <"$KVM_KDIR/root/modules.order")"
}

# kvm_ports: the TCP ports of the cluster's mons, mgr and OSDs (every
# address they advertise), one a line. Fails unless all are on 127.0.0.1:
# the guest reaches the host only through loopback relays.
kvm_ports() {
	local c=(ceph --connect-timeout 10)
	{
		timeout 30 "${c[@]}" mon dump -f json 2>/dev/null || echo '{}'
		echo
		timeout 30 "${c[@]}" osd dump -f json 2>/dev/null || echo '{}'
		echo
		timeout 30 "${c[@]}" mgr dump -f json 2>/dev/null || echo '{}'
		echo
		timeout 30 "${c[@]}" fs dump -f json 2>/dev/null || echo '{}'
		echo
	} | python3 -c '
import json, sys
ports, bad = set(), set()
def add(addrs):
    for a in (addrs or {}).get("addrvec", []):
        ip, _, p = a.get("addr", "").rpartition(":")
        if p and p != "0":
            (ports if ip == "127.0.0.1" else bad).add(ip + ":" + p)
docs = [json.loads(l) for l in sys.stdin if l.strip()]
if not docs or not docs[0].get("mons"):
    sys.exit("cannot read the mon map (is the cluster up? CEPH_CONF?)")
for d in docs:
    for m in d.get("mons", []):
        add(m.get("public_addrs"))
    for o in d.get("osds", []):
        if o.get("up"):
            add(o.get("public_addrs"))
    add(d.get("active_addrs"))
    # The MDS daemons, for the CephFS clients (fs dump).
    for f in d.get("filesystems", []):
        for i in f.get("mdsmap", {}).get("info", {}).values():
            add(i.get("addrs"))
    for i in d.get("standbys", []):
        add(i.get("addrs"))
if bad:
    sys.exit("addresses not on 127.0.0.1: %s (the guest relays loopback ports only)" % " ".join(sorted(bad)))
for p in sorted(ports, key=lambda s: int(s.rpartition(":")[2])):
    print(p.rpartition(":")[2])
'
}

# kvm_relays PORTS: the qemu guestfwd relays (and so the guests) of the
# cluster whose ports are PORTS ("nc 127.0.0.1 PORT"), one process a line;
# no other cluster on the machine has these ports.
kvm_relays() {
	local p
	for p in $1; do
		pgrep -af "nc 127\.0\.0\.1 $p([, ]|\$)" || true
	done | { grep -v pgrep || true; } | sort -u
}
