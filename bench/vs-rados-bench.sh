#!/usr/bin/env bash
# bench/vs-rados-bench.sh - ccbench rados against `rados bench` (issue #2).
#
# Same cluster, same parameters, alternating (rados bench, ccbench, rados
# bench, ...), RUNS runs each, for two loads:
#   1x16  one client, 4M ops, 16 in flight:
#         rados bench DUR write -t 16 -b 4M        vs  ccbench rados write -t 16
#   8x32  eight clients, 4M ops, 32 in flight each: 8 concurrent
#         `rados bench -t 32` processes (one --run-name each; their
#         bandwidths, bytes, CPU and RSS are added up)  vs  ccbench --clients 8 -t 32
# Every run writes for DUR with --no-cleanup, then reads back what it wrote
# (rados bench seq / ccbench rados seq, both stop when every object was
# read), then removes its objects (outside the measurement). Both the write
# and the seq figures are reported.
#
# Per run: bandwidth (MiB/s: rados bench's "MB/sec" is MiB/s, it divides
# by 1024*1024), bytes moved, client CPU (user+sys, /usr/bin/time, whole
# process including connect and teardown) and peak RSS. Summary: per-run
# and mean bandwidth, CPU seconds per GiB, peak RSS (largest run; summed
# over the 8 processes), and the goals of issue #2 (informational: the
# script exits 0 whenever every command succeeded):
#   bandwidth ccbench / rados bench >= 1.0
#   CPU per GiB ccbench <= 0.7 x rados bench
#   peak RSS ccbench <= clients x queue depth x op size + 64 MiB
#
# usage: bench/vs-rados-bench.sh
#   CCBENCH=build/ccbench RUNS=3 DURATION=10 POOL=rbd CEPH_CONF=...
#   LOADS="1x16 8x32"   KEEP_WORK=1 (keep raw outputs)
# Without CEPH_CONF a throwaway cluster (scripts/minicluster.sh) is started
# under /tmp and stopped at exit.
set -euo pipefail
PROG=vs-rados-bench
. "$(dirname "$0")/lib.sh"

DURATION=${DURATION:-10}
POOL=${POOL:-rbd}
LOADS=${LOADS:-1x16 8x32}
OP_BYTES=4194304
SEQ_LIMIT=600 # seconds; both seq readers stop earlier, when all is read

# rados_bench_run KIND(write|seq) CLIENTS QD RUN TAG: run CLIENTS
# concurrent rados bench processes and record their sum.
rados_bench_run() {
	local kind=$1 clients=$2 qd=$3 run=$4 tag=$5 i name pids=() bw=0 bytes=0 cpu=0 rss=0
	for ((i = 0; i < clients; i++)); do
		name=rb-$tag-$run-$kind-$i
		if [[ $kind == write ]]; then
			on_cleanup "rados -p $POOL cleanup --run-name rb-$tag-$run-$i"
			timed_start "$name" rados -p "$POOL" bench "$DURATION" write -t "$qd" \
				-b "$OP_BYTES" --run-name "rb-$tag-$run-$i" --no-cleanup
		else
			timed_start "$name" rados -p "$POOL" bench "$SEQ_LIMIT" seq -t "$qd" \
				--run-name "rb-$tag-$run-$i"
		fi
		pids+=($!)
	done
	for ((i = 0; i < clients; i++)); do
		name=rb-$tag-$run-$kind-$i
		wait "${pids[i]}" || {
			tail -n 20 "$WORK/$name.err" "$WORK/$name.out" >&2
			die "$name failed"
		}
		local f=$WORK/$name.out n sz b
		b=$(rb_field "$f" 'Bandwidth (MB/sec)')
		if [[ $kind == write ]]; then
			n=$(rb_field "$f" 'Total writes made')
			sz=$(rb_field "$f" 'Write size')
		else
			n=$(rb_field "$f" 'Total reads made')
			sz=$(rb_field "$f" 'Read size')
		fi
		read -r bw bytes cpu rss < <(awk -v bw="$bw" -v by="$bytes" -v c="$cpu" -v r="$rss" \
			-v b="$b" -v n="$n" -v sz="$sz" -v cc="$(cpu_s "$name")" -v rr="$(rss_kib "$name")" \
			'BEGIN { printf "%.3f %.0f %.3f %.0f\n", bw + b, by + n * sz, c + cc, r + rr }')
	done
	record "$kind ${tag}" rados-bench "$run" "$bw" "$bytes" "$cpu" "$rss"
}

# rados_bench_cleanup CLIENTS RUN TAG
rados_bench_cleanup() {
	local i
	for ((i = 0; i < $1; i++)); do
		rados -p "$POOL" cleanup --run-name "rb-$3-$2-$i" >/dev/null ||
			die "rados cleanup --run-name rb-$3-$2-$i failed"
	done
}

# ccbench_run KIND(write|seq) CLIENTS QD RUN TAG
ccbench_run() {
	local kind=$1 clients=$2 qd=$3 run=$4 tag=$5 name=cc-$5-$4-$1 rn=cc-$5-$4
	if [[ $kind == write ]]; then
		on_cleanup "$CCBENCH cleanup -p $POOL --run-name $rn -q"
		timed "$name" "$CCBENCH" rados write -p "$POOL" -b "$OP_BYTES" -t "$qd" \
			--clients "$clients" -d "${DURATION}s" --run-name "$rn" --no-cleanup -f json -q
	else
		timed "$name" "$CCBENCH" rados seq -p "$POOL" -t "$qd" --clients "$clients" \
			-d "${SEQ_LIMIT}s" --run-name "$rn" -f json -q
	fi
	ccb_check "$name"
	record "$kind ${tag}" ccbench "$run" "$(ccb_field "$name" bandwidth_mib_s)" \
		"$(ccb_field "$name" bytes)" "$(cpu_s "$name")" "$(rss_kib "$name")"
}

# one_load CLIENTS QD: RUNS alternating runs of both tools.
one_load() {
	local clients=$1 qd=$2 tag=${1}x$2 run
	log "load $tag: $RUNS runs each, write ${DURATION}s then seq, alternating"
	for ((run = 1; run <= RUNS; run++)); do
		rados_bench_run write "$clients" "$qd" "$run" "$tag"
		rados_bench_run seq "$clients" "$qd" "$run" "$tag"
		rados_bench_cleanup "$clients" "$run" "$tag"
		ccbench_run write "$clients" "$qd" "$run" "$tag"
		ccbench_run seq "$clients" "$qd" "$run" "$tag"
		"$CCBENCH" cleanup -p "$POOL" --run-name "cc-$tag-$run" -q >/dev/null ||
			die "ccbench cleanup --run-name cc-$tag-$run failed"
	done
}

# report_load CLIENTS QD
report_load() {
	local clients=$1 qd=$2 tag=${1}x$2 kind rb_bw rb_cpg rb_rss cc_bw cc_cpg cc_rss
	for kind in write seq; do
		summary_row "$kind $tag" rados-bench
		read -r rb_bw rb_cpg rb_rss <<<"$ROW"
		summary_row "$kind $tag" ccbench
		read -r cc_bw cc_cpg cc_rss <<<"$ROW"
		verdict "bandwidth ccbench / rados bench" "$(ratio "$cc_bw" "$rb_bw")" '>=' 1.0
		verdict "CPU/GiB ccbench / rados bench" "$(ratio "$cc_cpg" "$rb_cpg")" '<=' 0.7
		verdict "ccbench peak RSS MiB" "$cc_rss" '<=' \
			"$(awk -v c="$clients" -v q="$qd" -v o=$OP_BYTES -v M=$MIB 'BEGIN { print c * q * o / M + 64 }')"
		echo "    (rados bench peak RSS $rb_rss MiB$( ((clients > 1)) && echo ", sum of $clients processes"))"
	done
}

main() {
	bench_init rados
	local l
	for l in $LOADS; do
		[[ $l =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || die "LOADS: bad load '$l' (e.g. 8x32)"
		one_load "${l%x*}" "${l#*x}"
	done
	echo "ccbench rados vs rados bench: 4M ops, write ${DURATION}s then seq, $RUNS alternating runs each"
	echo "$(machine_note)"
	summary_header
	for l in $LOADS; do
		report_load "${l%x*}" "${l#*x}"
	done
}

main "$@"
