#!/usr/bin/env bash
# ccbench krbd read vs dd on the same device, at several read_ahead_kb
# values, alternating (dd, ccbench, dd, ccbench ...), RUNS runs each; prints
# MB/s (10^6 bytes/s, as dd does), the ccbench/dd ratio and client CPU
# seconds per GiB. Not part of the tests.
#
# usage: bench/krbd-vs-dd.sh DEV [RA_KB...]    (default RA_KB: 128 1024 4096)
#   CCBENCH=build/ccbench RUNS=3 BS=64k
# The device is only read. dd drops the page cache first like ccbench does
# (blockdev --flushbufs); read_ahead_kb is set with blockdev --setra for dd
# and with --read-ahead-kb for ccbench, and put back at the end.
set -euo pipefail
dev=${1:?usage: bench/krbd-vs-dd.sh DEV [RA_KB...]}
shift
ras=("${@:-128 1024 4096}")
[ $# -gt 0 ] || ras=(128 1024 4096)
ccbench=${CCBENCH:-$(dirname "$0")/../build/ccbench}
runs=${RUNS:-3}
bs=${BS:-64k}
q=/sys/block/$(basename "$(readlink -f "$dev")")/queue/read_ahead_kb
orig=$(cat "$q")
trap 'echo "$orig" >"$q"' EXIT
bytes=$(blockdev --getsize64 "$dev")

# run_dd RA: prints "MBps cpu_s"
run_dd() {
	echo "$1" >"$q"
	blockdev --flushbufs "$dev"
	local t0 t1 c
	t0=$(date +%s.%N)
	c=$( { /usr/bin/time -f '%U %S' dd if="$dev" of=/dev/null bs="$bs" status=none; } 2>&1 | tail -1)
	t1=$(date +%s.%N)
	python3 -c "u,s='$c'.split(); print('%.1f %.3f' % ($bytes/1e6/($t1-$t0), float(u)+float(s)))"
}

# run_ccb RA: prints "MBps cpu_s"
run_ccb() {
	local out c
	out=$(mktemp)
	c=$( { /usr/bin/time -f '%U %S' "$ccbench" krbd read --device "$dev" --io-size "$bs" \
		--read-ahead-kb "$1" -q -f json >"$out"; } 2>&1 | tail -1)
	python3 -c "import json; d=json.load(open('$out')); u,s='$c'.split(); print('%.1f %.3f' % (d['bytes']/1e6/d['seconds'], float(u)+float(s)))"
	rm -f "$out"
}

printf '%-8s %-4s %10s %10s %8s %12s %12s\n' RA_KB RUN DD_MB/s CCB_MB/s RATIO DD_CPU/GiB CCB_CPU/GiB
gib=$(python3 -c "print($bytes/2**30)")
for ra in "${ras[@]}"; do
	for i in $(seq 1 "$runs"); do
		read -r dmb dcpu < <(run_dd "$ra")
		read -r cmb ccpu < <(run_ccb "$ra")
		python3 -c "print('%-8s %-4s %10s %10s %8.2f %12.3f %12.3f' % ('$ra', '$i', '$dmb', '$cmb', $cmb/$dmb, $dcpu/$gib, $ccpu/$gib))"
	done
done
