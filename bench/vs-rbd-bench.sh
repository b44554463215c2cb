#!/usr/bin/env bash
# bench/vs-rbd-bench.sh - ccbench rbd against `rbd bench` and
# `fio --ioengine=rbd` (issue #3).
#
# One image on one cluster, filled first (rbd bench --io-type write over the
# whole image), then for each case the three tools alternate (rbd bench,
# fio, ccbench, rbd bench, ...), RUNS runs each, with the same io size,
# queue depth, pattern and byte count:
#   read 4M x16       sequential, one pass over the image (IMAGE_SIZE)
#   read 64K x1       sequential, SMALL_TOTAL bytes from offset 0
#   randread 4K x32   random over the whole image, RAND_TOTAL bytes
#   write 4M x16      sequential, one pass over the image (last: it rewrites it)
# ccbench reads the existing image (--image, read-only); its write case
# writes into it (--allow-write-existing).
#
# librbd settings: all three run with librbd's defaults. ccbench sets
# rbd_readahead_disable_after_bytes to 0 unless told otherwise, so it is
# given --readahead-disable-after 50M (librbd's default); under the default
# cache policy (writearound) Pacific's librbd does no readahead anyway, which
# ccbench's layout.librbd.readahead_active confirms. fio runs with --thread
# so that its job is in the process /usr/bin/time measures.
#
# Per run: bandwidth in MiB/s (rbd bench: ops/sec x io size from its final
# "elapsed:" line; fio: bw_bytes; ccbench: bandwidth_mib_s), bytes moved,
# client CPU (user+sys of the whole process, /usr/bin/time) and peak RSS.
# Goals of issue #3 (informational: the script exits 0 whenever every
# command succeeded):
#   bandwidth ccbench >= 0.95 x the better of rbd bench and fio
#   CPU per GiB ccbench < both
#
# usage: bench/vs-rbd-bench.sh
#   CCBENCH=build/ccbench RUNS=3 IMAGE_SIZE=1G SMALL_TOTAL=256M RAND_TOTAL=64M
#   POOL=rbd CASES="read-4M-16 read-64K-1 randread-4K-32 write-4M-16"
#   CEPH_CONF=... (use that cluster)  KEEP_WORK=1 (keep raw outputs)
set -euo pipefail
PROG=vs-rbd-bench
. "$(dirname "$0")/lib.sh"

POOL=${POOL:-rbd}
IMAGE_SIZE=${IMAGE_SIZE:-1G}
SMALL_TOTAL=${SMALL_TOTAL:-256M}
RAND_TOTAL=${RAND_TOTAL:-64M}
CASES=${CASES:-read-4M-16 read-64K-1 randread-4K-32 write-4M-16}
IMAGE=ccb-vs-rbd-$$

bytes_of() { numfmt --from=iec "$1"; }

# rbd_bench_run CASE RUN TYPE(read|write) PATTERN(seq|rand) IO QD TOTAL
rbd_bench_run() {
	local name=rbd-$1-$2 io_bytes ops ops_s fin
	timed "$name" rbd bench --io-type "$3" --io-pattern "$4" --io-size "$5" \
		--io-threads "$6" --io-total "$7" "$POOL/$IMAGE"
	io_bytes=$(bytes_of "$5")
	fin=$(rbdb_final "$name")
	read -r ops ops_s <<<"$fin"
	record "$1" rbd-bench "$2" "$(awk -v o="$ops_s" -v b="$io_bytes" -v M=$MIB 'BEGIN { print o * b / M }')" \
		"$((ops * io_bytes))" "$(cpu_s "$name")" "$(rss_kib "$name")"
}

# fio_run CASE RUN RW(read|randread|write) IO QD TOTAL
fio_run() {
	local name=fio-$1-$2 dir="read"
	[[ $3 == write ]] && dir="write"
	timed "$name" fio --name=x --ioengine=rbd --clientname=admin --pool="$POOL" \
		--rbdname="$IMAGE" --rw="$3" --bs="$4" --iodepth="$5" --size="$IMAGE_SIZE" \
		--io_size="$6" --direct=1 --thread --output-format=json
	local bw bytes
	bw=$(jq -er ".jobs[0].$dir.bw_bytes" "$WORK/$name.out") || die "$name: no fio JSON"
	bytes=$(jq -er ".jobs[0].$dir.io_bytes" "$WORK/$name.out")
	record "$1" fio "$2" "$(awk -v b="$bw" -v M=$MIB 'BEGIN { print b / M }')" "$bytes" \
		"$(cpu_s "$name")" "$(rss_kib "$name")"
}

# ccbench_run CASE RUN MODE(read|randread|write) IO QD TOTAL
ccbench_run() {
	local name=ccb-$1-$2 extra=()
	[[ $3 == write ]] && extra=(--allow-write-existing)
	timed "$name" "$CCBENCH" rbd "$3" --image "$POOL/$IMAGE" "${extra[@]}" --io-size "$4" \
		-t "$5" --total "$6" --readahead-disable-after 50M -f json -q
	ccb_check "$name"
	record "$1" ccbench "$2" "$(ccb_field "$name" bandwidth_mib_s)" "$(ccb_field "$name" bytes)" \
		"$(cpu_s "$name")" "$(rss_kib "$name")"
}

# one_case NAME: RUNS alternating runs of the three tools.
one_case() {
	local c=$1 rw pattern mode io qd total run
	IFS=- read -r mode io qd <<<"$c"
	case $mode in
	read) rw=read pattern=seq ;;
	randread) rw=read pattern=rand ;;
	write) rw=write pattern=seq ;;
	*) die "CASES: unknown mode in '$c'" ;;
	esac
	case $c in
	read-4M-* | write-*) total=$IMAGE_SIZE ;;
	randread-*) total=$RAND_TOTAL ;;
	*) total=$SMALL_TOTAL ;;
	esac
	log "case $c: $io x $qd, $total per run, $RUNS alternating runs per tool"
	for ((run = 1; run <= RUNS; run++)); do
		rbd_bench_run "$c" "$run" "$rw" "$pattern" "$io" "$qd" "$total"
		fio_run "$c" "$run" "$mode" "$io" "$qd" "$total"
		ccbench_run "$c" "$run" "$mode" "$io" "$qd" "$total"
	done
	# What librbd really ran with in ccbench (read back by ccbench).
	jq -c '.layout.librbd' "$WORK/ccb-$c-1.out" >"$WORK/librbd-$c"
}

report_case() {
	local c=$1 rb_bw rb_cpg rb_rss f_bw f_cpg f_rss c_bw c_cpg c_rss best
	summary_row "$c" rbd-bench
	read -r rb_bw rb_cpg rb_rss <<<"$ROW"
	summary_row "$c" fio
	read -r f_bw f_cpg f_rss <<<"$ROW"
	summary_row "$c" ccbench
	read -r c_bw c_cpg c_rss <<<"$ROW"
	best=$(awk -v a="$rb_bw" -v b="$f_bw" 'BEGIN { print (a > b ? a : b) }')
	verdict "bandwidth ccbench / best of rbd bench, fio" "$(ratio "$c_bw" "$best")" '>=' 0.95
	verdict "CPU/GiB ccbench / rbd bench" "$(ratio "$c_cpg" "$rb_cpg")" '<' 1.0
	verdict "CPU/GiB ccbench / fio" "$(ratio "$c_cpg" "$f_cpg")" '<' 1.0
	echo "    ccbench layout.librbd: $(cat "$WORK/librbd-$c")"
}

main() {
	bench_init rbd fio numfmt
	on_cleanup "rbd rm --no-progress $POOL/$IMAGE"
	rbd create --size "$IMAGE_SIZE" "$POOL/$IMAGE" || die "rbd create $POOL/$IMAGE failed"
	log "filling $POOL/$IMAGE ($IMAGE_SIZE) with rbd bench --io-type write"
	timed fill rbd bench --io-type write --io-size 4M --io-threads 16 --io-total "$IMAGE_SIZE" \
		--io-pattern seq "$POOL/$IMAGE"
	local c
	for c in $CASES; do
		one_case "$c"
	done
	echo "ccbench rbd vs rbd bench vs fio --ioengine=rbd: image $IMAGE_SIZE, $RUNS alternating runs each"
	echo "$(machine_note)"
	summary_header
	for c in $CASES; do
		report_case "$c"
	done
}

main "$@"
