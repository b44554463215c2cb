#!/usr/bin/env bash
# runner.sh - a sweep's krbd points on the real rbd driver: one qemu guest
# (run-in-guest.sh, TCG) for the whole sweep, serving the point commands
# the sweep sends it (ccbench sweep --runner krbd=CMD).
#
# usage:
#   tests/krbd-vm/runner.sh sweep CONFIG [ccbench sweep options...]
#       start a guest, run `ccbench sweep CONFIG --runner krbd=...` with
#       it, stop the guest whatever happens; exit status: the sweep's
#   tests/krbd-vm/runner.sh start SPOOL     boot a guest serving SPOOL
#   tests/krbd-vm/runner.sh run SPOOL ARGS  one point: ccbench ARGS in the
#       guest; its stdout (the -f json result), its stderr, its exit status
#   tests/krbd-vm/runner.sh stop SPOOL      power the guest off
#
# The guest runs tests/krbd-vm/guest-serve.sh over SPOOL, a host directory
# shared writable into it (its protocol is described there). The image the
# sweep shares between points is made by the host's ccbench (natively,
# fast); the guest maps it read-only through the kernel driver, once per
# point, so each point's connection is new (and gets the OSD-side
# latency, which applies to connections made after it was set).
#
# Environment: CCBENCH (the ccbench binary, default build/ccbench of this
# tree), CEPH_CONF (the cluster), CCB_KRBD_VM_SMP / _MEM / _CPU (guest
# CPUs, default 1 here; MiB; CPU model, default qemu64 here; see
# run-in-guest.sh), CCB_KRBD_RUNNER_LIFE (seconds the guest may live,
# default 7200), CCB_KRBD_RUNNER_BOOT (seconds to wait for it to serve,
# default 420), CCB_KRBD_RUNNER_POINT (seconds one point may take, default
# 1800). Every wait is bounded; a guest that died fails the point (exit
# 125) instead of hanging the sweep.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CCBENCH=${CCBENCH:-$top/build/ccbench}
CCBENCH=$(realpath "$CCBENCH")
export CCBENCH
# One guest CPU: the guest's busy share is then its one CPU's, which is
# what says whether the emulation was the limit (explain's client-cpu);
# a second TCG CPU mostly competes with the cluster for the host's.
export CCB_KRBD_VM_SMP=${CCB_KRBD_VM_SMP:-1}
# A CPU without the features "max" adds: under TCG the kernel's copies
# then use rep movsq rather than rep movsb (ERMS), and crc32c its table
# rather than the emulated SSE4.2 instruction; 4 MiB readaheads read 14-22
# MiB/s in the guest against 9-12 with "max" (same host, same hour).
export CCB_KRBD_VM_CPU=${CCB_KRBD_VM_CPU:-qemu64}

die() {
	echo "krbd-runner: $*" >&2
	exit 125
}
usage() {
	sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"
	exit "${1:-2}"
}
guest_alive() {
	local pid
	pid=$(cat "$1/host.pid" 2>/dev/null) || return 1
	kill -0 "$pid" 2>/dev/null
}

cmd_start() {
	local spool=$1 life=${CCB_KRBD_RUNNER_LIFE:-7200} boot=${CCB_KRBD_RUNNER_BOOT:-420} t0
	[ -d "$spool" ] || die "start: $spool: no such directory"
	[ -n "${CEPH_CONF:-}" ] || die "start: CEPH_CONF must name the cluster's ceph.conf"
	rm -f "$spool/ready" "$spool/stop"
	# A session of its own: stop can end it (and its qemu) as one group.
	setsid "$here/run-in-guest.sh" --timeout "$life" --share "$spool" \
		"$here/guest-serve.sh" "$spool" >"$spool/console.log" 2>&1 </dev/null &
	echo $! >"$spool/host.pid"
	t0=$(date +%s)
	while [ ! -e "$spool/ready" ]; do
		if ! guest_alive "$spool"; then
			sed 's/^/    /' "$spool/console.log" >&2
			die "start: the guest ended before it served (console above)"
		fi
		if [ $(($(date +%s) - t0)) -ge "$boot" ]; then
			cmd_stop "$spool"
			die "start: the guest did not serve within ${boot}s"
		fi
		sleep 1
	done
	echo "krbd-runner: guest serving $spool after $(($(date +%s) - t0))s" >&2
}

cmd_stop() {
	local spool=$1 pid
	pid=$(cat "$spool/host.pid" 2>/dev/null) || return 0
	: >"$spool/stop"
	for _ in $(seq 1 120); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	# run-in-guest.sh kills its own qemu when it ends; this is for a guest
	# that would not power off.
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM -- "-$pid" 2>/dev/null
		sleep 5
		kill -KILL -- "-$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	rm -f "$spool/host.pid"
}

cmd_run() {
	local spool=$1 id rc limit=${CCB_KRBD_RUNNER_POINT:-1800} t0 cancelled=
	shift
	guest_alive "$spool" || die "run: no guest serving $spool (runner.sh start)"
	id=$(date +%s%N)-$$
	printf '%s\0' "$@" >"$spool/.req-$id" && mv "$spool/.req-$id" "$spool/req-$id" ||
		die "run: cannot write the request into $spool"
	# Ctrl-C or the sweep's SIGTERM: the guest's ccbench gets SIGINT and
	# unwinds (unmaps); its partial result still comes back.
	trap 'cancelled=1; : >"$spool/cancel-$id"' INT TERM HUP
	t0=$(date +%s)
	while [ ! -e "$spool/done-$id" ]; do
		if ! guest_alive "$spool"; then
			echo "krbd-runner: the guest died during run $id" >&2
			return 125
		fi
		if [ -z "$cancelled" ] && [ $(($(date +%s) - t0)) -ge "$limit" ]; then
			echo "krbd-runner: run $id over ${limit}s: cancelled" >&2
			cancelled=1
			: >"$spool/cancel-$id"
		fi
		sleep 0.2
	done
	rc=$(cat "$spool/done-$id")
	cat "$spool/err-$id.txt" >&2 2>/dev/null
	cat "$spool/out-$id.json" 2>/dev/null
	rm -f "$spool/done-$id" "$spool/out-$id.json" "$spool/err-$id.txt" "$spool/cancel-$id"
	[[ "$rc" =~ ^[0-9]+$ ]] || rc=125
	return "$rc"
}

cmd_sweep() {
	local config=$1 rc
	shift
	# Global: the EXIT trap runs after this function has returned.
	sweep_spool=$(mktemp -d /tmp/ccbench-krbd-runner.XXXXXX) || die "mktemp"
	trap 'cmd_stop "$sweep_spool"; rm -rf "$sweep_spool"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	cmd_start "$sweep_spool" || exit $?
	rc=0
	"$CCBENCH" sweep "$config" --runner "krbd=$0 run $sweep_spool" "$@" || rc=$?
	return "$rc"
}

[ $# -ge 1 ] || usage
case "$1" in
-h | --help) usage 0 ;;
start) [ $# = 2 ] || usage; cmd_start "$2" ;;
stop) [ $# = 2 ] || usage; cmd_stop "$2" ;;
run) [ $# -ge 3 ] || usage; spool=$2; shift 2; cmd_run "$spool" "$@" ;;
sweep) [ $# -ge 2 ] || usage; shift; cmd_sweep "$@" ;;
*) usage ;;
esac
