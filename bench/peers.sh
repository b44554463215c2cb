#!/usr/bin/env bash
# bench/peers.sh - every case of issue #14 in one run: ccbench against the
# fastest peer (rados bench, rbd bench, fio --ioengine=rbd), side by side on
# one cluster, the tools taking turns (A B C A B C ...), RUNS runs each.
#
# Cases (CASES, in this order; the rbd writes run last, they rewrite the image):
#   rados-4M-16     rados bench DUR write -t 16 / seq   vs ccbench rados write / seq
#   rados-8x32      8 rados bench -t 32 processes (sums) vs ccbench rados write --clients 8 -t 32
#   read-4M-16      rbd bench, fio   one pass over the image
#   read-64K-1      rbd bench, fio   SMALL_TOTAL sequential
#   read-4K-1       rbd bench, fio   QD1_TOTAL sequential (per-op overhead)
#   randread-4K-32  rbd bench, fio   RAND_TOTAL random
#   write-4M-16     rbd bench, fio   one pass over the image
#   randwrite-4K-32 rbd bench, fio   RAND_TOTAL random
#
# Per run: bandwidth, bytes, client CPU (user+sys of the whole process),
# page faults (minor+major) and peak RSS from /usr/bin/time, and the mean
# op latency where the tool reports one (fio, ccbench). Per case and tool the
# table gives medians over the runs (RSS: the largest run) and, for ccbench,
# the goals of issue #14 (informational; the script exits 0 whenever every
# command succeeded):
#   bandwidth  ccbench / best peer's >= 1.0
#   CPU/GiB    ccbench / lowest peer's <= 0.7 on 4M cases, <= 1.0 on 64K and 4K
#   peak RSS   <= clients x queue depth x op size + 64 MiB
#   latency    ccbench mean / fio mean <= 1.03 at 64K x 1 and 4K x 1
#
# usage: bench/peers.sh
#   CCBENCH=build/ccbench RUNS=3 POOL=rbd DURATION=5 IMAGE_SIZE=512M
#   SMALL_TOTAL=128M QD1_TOTAL=16M RAND_TOTAL=32M CASES="..." KEEP_WORK=1
#   CEPH_CONF=... (use that cluster; otherwise scripts/minicluster.sh starts one,
#   with MC_ARGS, default "--osd-mem 6G")
#   bench/peers.sh --report RESULTS  the table again from a kept results file
#   CCBENCH_BASE=path  also run this second ccbench binary (tool "ccb-base") in
#   the same alternation, for before/after figures from one run;
#   CCBENCH_MORE="ccb-NAME=PATH ..." more of them.
#   CCBENCH_TRIM=DUR  also run ccbench with --malloc-trim DUR (tool "ccb-trim"),
#   the memory-for-CPU trade-off of the peak RSS goal, in the same alternation.
#   CCBENCH_ATTR_OFF=1  also run ccbench with --attribution off (tool
#   "ccb-noattr"), in the same alternation: what the per-OSD attribution
#   costs a closed loop (bandwidth, CPU per GiB), and after the table what
#   its queries before and after each run took per OSD
#   (docs/attribution.md#what-it-costs).
# Bigger, steadier figures: DURATION=10 IMAGE_SIZE=1G SMALL_TOTAL=256M
# RAND_TOTAL=64M RUNS=5.
set -euo pipefail
PROG=peers
. "$(dirname "$0")/lib.sh"

POOL=${POOL:-rbd}
DURATION=${DURATION:-5}
IMAGE_SIZE=${IMAGE_SIZE:-512M}
SMALL_TOTAL=${SMALL_TOTAL:-128M}
QD1_TOTAL=${QD1_TOTAL:-16M}
RAND_TOTAL=${RAND_TOTAL:-32M}
CASES=${CASES:-rados-4M-16 rados-8x32 read-4M-16 read-64K-1 read-4K-1 randread-4K-32 write-4M-16 randwrite-4K-32}
IMAGE=ccb-peers-$$
SEQ_LIMIT=600
OP4M=4194304
# Result lines: CASE TOOL RUN MIB_S BYTES CPU_S RSS_KIB FAULTS LAT_US BOUND_MIB
# (LAT_US "-" where the tool reports none; BOUND_MIB the RSS goal, ccbench only).

bytes_of() { numfmt --from=iec "$1"; }

# rec CASE TOOL RUN MIB_S BYTES NAME|SUMS LAT_US BOUND_MIB: one result line,
# CPU, RSS and faults from NAME's time file (or "cpu rss faults" given).
rec() {
	local cpu rss flt
	if [[ -f "$WORK/$6.time" ]]; then
		cpu=$(cpu_s "$6") rss=$(rss_kib "$6") flt=$(faults "$6")
	else
		read -r cpu rss flt <<<"$6"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$cpu" "$rss" \
		"$flt" "$7" "$8" >>"$RESULTS"
	awk -v c="$1" -v t="$2" -v r="$3" -v bw="$4" -v b="$5" -v cpu="$cpu" -v rss="$rss" \
		-v f="$flt" -v l="$7" -v G=$GIB 'BEGIN { printf "  %-16s %-11s run %s %8.1f MiB/s %6.2f CPU s/GiB %8.0f faults/GiB %7.1f MiB RSS  lat %s us\n",
		c, t, r, bw, cpu / (b / G), f / (b / G), rss / 1024, l }' >&2
}

# ---- rados --------------------------------------------------------------

# rb_run KIND(write|seq) CLIENTS QD RUN TAG CASE: CLIENTS concurrent rados
# bench processes, their sum recorded.
rb_run() {
	local kind=$1 clients=$2 qd=$3 run=$4 tag=$5 case=$6 i name pids=()
	local bw=0 bytes=0 cpu=0 rss=0 flt=0 f b n sz
	for ((i = 0; i < clients; i++)); do
		name=rb-$tag-$run-$kind-$i
		if [[ $kind == write ]]; then
			on_cleanup "rados -p $POOL cleanup --run-name rb-$tag-$run-$i"
			timed_start "$name" rados -p "$POOL" bench "$DURATION" write -t "$qd" -b $OP4M \
				--run-name "rb-$tag-$run-$i" --no-cleanup
		else
			timed_start "$name" rados -p "$POOL" bench $SEQ_LIMIT seq -t "$qd" \
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
		f=$WORK/$name.out
		b=$(rb_field "$f" 'Bandwidth (MB/sec)')
		if [[ $kind == write ]]; then
			n=$(rb_field "$f" 'Total writes made') sz=$(rb_field "$f" 'Write size')
		else
			n=$(rb_field "$f" 'Total reads made') sz=$(rb_field "$f" 'Read size')
		fi
		read -r bw bytes cpu rss flt < <(awk -v bw="$bw" -v by="$bytes" -v c="$cpu" -v r="$rss" \
			-v fl="$flt" -v b="$b" -v n="$n" -v sz="$sz" -v cc="$(cpu_s "$name")" \
			-v rr="$(rss_kib "$name")" -v ff="$(faults "$name")" \
			'BEGIN { printf "%.3f %.0f %.3f %.0f %.0f\n", bw + b, by + n * sz, c + cc, r + rr, fl + ff }')
	done
	rec "$case" rados-bench "$run" "$bw" "$bytes" "$cpu $rss $flt" - -
}

# The ccbench binaries that take part (CC_TOOLS, lib.sh), and more.
# shellcheck disable=SC2206 # words on purpose: "ccb-NAME=PATH ..."
[[ -n "${CCBENCH_MORE:-}" ]] && CC_TOOLS+=($CCBENCH_MORE)
# Options a tool adds to every ccbench command line.
declare -A CC_EXTRA=()
if [[ -n "${CCBENCH_TRIM:-}" ]]; then
	CC_TOOLS+=("ccb-trim=$CCBENCH")
	CC_EXTRA[ccb-trim]="--malloc-trim $CCBENCH_TRIM"
fi
if [[ -n "${CCBENCH_ATTR_OFF:-}" ]]; then
	CC_TOOLS+=("ccb-noattr=$CCBENCH")
	CC_EXTRA[ccb-noattr]="--attribution off"
fi
# cc_extra TOOL: that tool's added options, one per line (for mapfile).
cc_extra() {
	local w
	for w in ${CC_EXTRA[$1]:-}; do printf '%s\n' "$w"; done
}

# cc_rados KIND CLIENTS QD RUN TAG CASE TOOL BIN
cc_rados() {
	local kind=$1 clients=$2 qd=$3 run=$4 tag=$5 case=$6 tool=$7 CCBENCH=$8
	local name=$7-$5-$4-$1 rn=$7-$5-$4 more
	mapfile -t more < <(cc_extra "$tool")
	if [[ $kind == write ]]; then
		on_cleanup "$CCBENCH cleanup -p $POOL --run-name $rn -q"
		timed "$name" "$CCBENCH" rados write -p "$POOL" -b $OP4M -t "$qd" --clients "$clients" \
			-d "${DURATION}s" --run-name "$rn" --no-cleanup -f json -q "${more[@]}"
	else
		timed "$name" "$CCBENCH" rados seq -p "$POOL" -t "$qd" --clients "$clients" \
			-d "${SEQ_LIMIT}s" --run-name "$rn" -f json -q "${more[@]}"
	fi
	ccb_check "$name"
	rec "$case" "$tool" "$run" "$(ccb_field "$name" bandwidth_mib_s)" "$(ccb_field "$name" bytes)" \
		"$name" "$(ccb_field "$name" latency_us.mean)" $((clients * qd * 4 + 64))
}

rados_case() {
	local clients=$1 qd=$2 tag=$1x$2 run i t
	log "rados $tag: write ${DURATION}s$( ((clients == 1)) && echo ' then seq'), $RUNS alternating runs"
	for ((run = 1; run <= RUNS; run++)); do
		drained
		rb_run write "$clients" "$qd" "$run" "$tag" "rados-write-4M-$tag"
		((clients > 1)) || rb_run seq "$clients" "$qd" "$run" "$tag" "rados-seq-4M-$tag"
		for ((i = 0; i < clients; i++)); do
			rados -p "$POOL" cleanup --run-name "rb-$tag-$run-$i" >/dev/null || die "rados cleanup failed"
		done
		for t in "${CC_TOOLS[@]}"; do
			drained
			cc_rados write "$clients" "$qd" "$run" "$tag" "rados-write-4M-$tag" "${t%%=*}" "${t#*=}"
			((clients > 1)) || cc_rados seq "$clients" "$qd" "$run" "$tag" "rados-seq-4M-$tag" "${t%%=*}" "${t#*=}"
			"$CCBENCH" cleanup -p "$POOL" --run-name "${t%%=*}-$tag-$run" -q >/dev/null ||
				die "ccbench cleanup failed"
		done
	done
}

# ---- rbd ------------------------------------------------------------------

rbd_bench_run() { # CASE RUN TYPE PATTERN IO QD TOTAL
	local name=rbd-$1-$2 io ops ops_s fin
	timed "$name" rbd bench --io-type "$3" --io-pattern "$4" --io-size "$5" --io-threads "$6" \
		--io-total "$7" "$POOL/$IMAGE"
	io=$(bytes_of "$5")
	fin=$(rbdb_final "$name")
	read -r ops ops_s <<<"$fin"
	rec "$1" rbd-bench "$2" "$(awk -v o="$ops_s" -v b="$io" -v M=$MIB 'BEGIN { print o * b / M }')" \
		"$((ops * io))" "$name" - -
}

fio_run() { # CASE RUN RW IO QD TOTAL
	local name=fio-$1-$2 dir=read
	[[ $3 == *write ]] && dir=write
	timed "$name" fio --name=x --ioengine=rbd --clientname=admin --pool="$POOL" --rbdname="$IMAGE" \
		--rw="$3" --bs="$4" --iodepth="$5" --size="$IMAGE_SIZE" --io_size="$6" --direct=1 --thread \
		--output-format=json
	local j=".jobs[0].$dir"
	rec "$1" fio "$2" "$(jq -er "$j.bw_bytes / $MIB" "$WORK/$name.out")" \
		"$(jq -er "$j.io_bytes" "$WORK/$name.out")" "$name" \
		"$(jq -er "$j.lat_ns.mean / 1000" "$WORK/$name.out")" -
}

cc_rbd() { # CASE RUN MODE IO QD TOTAL TOOL BIN
	local name=$7-$1-$2 extra=() tool=$7 CCBENCH=$8
	mapfile -t extra < <(cc_extra "$tool")
	[[ $3 == *write ]] && extra+=(--allow-write-existing)
	timed "$name" "$CCBENCH" rbd "$3" --image "$POOL/$IMAGE" "${extra[@]}" --io-size "$4" -t "$5" \
		--total "$6" --readahead-disable-after 50M -f json -q
	ccb_check "$name"
	rec "$1" "$tool" "$2" "$(ccb_field "$name" bandwidth_mib_s)" "$(ccb_field "$name" bytes)" \
		"$name" "$(ccb_field "$name" latency_us.mean)" \
		"$(awk -v q="$5" -v b="$(bytes_of "$4")" -v M=$MIB 'BEGIN { printf "%.1f", q * b / M + 64 }')"
}

rbd_case() {
	local c=$1 mode io qd total type pattern run t
	IFS=- read -r mode io qd <<<"$c"
	case $mode in
	read) type=read pattern=seq ;;
	randread) type=read pattern=rand ;;
	write) type=write pattern=seq ;;
	randwrite) type=write pattern=rand ;;
	*) die "CASES: unknown '$c'" ;;
	esac
	case $c in
	*-4M-*) total=$IMAGE_SIZE ;;
	rand*) total=$RAND_TOTAL ;;
	*-4K-1) total=$QD1_TOTAL ;;
	*) total=$SMALL_TOTAL ;;
	esac
	log "rbd $c: $io x $qd, $total per run, $RUNS alternating runs"
	for ((run = 1; run <= RUNS; run++)); do
		rbd_bench_run "$c" "$run" "$type" "$pattern" "$io" "$qd" "$total"
		fio_run "$c" "$run" "$mode" "$io" "$qd" "$total"
		for t in "${CC_TOOLS[@]}"; do
			cc_rbd "$c" "$run" "$mode" "$io" "$qd" "$total" "${t%%=*}" "${t#*=}"
		done
	done
}

# ---- the table ------------------------------------------------------------

# One row per case and tool (medians), then each ccbench's ratios and verdicts.
report() {
	awk -F'\t' -v G=$GIB '
	function med(s,   a, n, i, j, t) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function ours(t) { return t == "ccbench" || t ~ /^ccb-/ }
	{
		k = $1 SUBSEP $2
		if (!($1 in seen)) { cases[++nc] = $1; seen[$1] = 1 }
		if (!(k in bw)) tools[$1] = tools[$1] " " $2
		bw[k] = bw[k] " " $4; bwr[k, $3] = $4; cpg[k] = cpg[k] " " ($6 / ($5 / G)); fpg[k] = fpg[k] " " ($8 / ($5 / G))
		if ($7 > rss[k]) rss[k] = $7
		if ($9 != "-") lat[k] = lat[k] " " $9
		if ($10 != "-") bound[$1] = $10
	}
	END {
		printf "| case | tool | MiB/s | CPU s/GiB | faults/GiB | peak RSS MiB | mean lat us |\n"
		printf "|---|---|---|---|---|---|---|\n"
		for (c = 1; c <= nc; c++) {
			cs = cases[c]; nt[cs] = split(tools[cs], T, " ")
			for (t = 1; t <= nt[cs]; t++) {
				TT[cs, t] = T[t]; k = cs SUBSEP T[t]
				B[k] = med(bw[k]); C[k] = med(cpg[k]); F[k] = med(fpg[k])
				L[k] = lat[k] != "" ? med(lat[k]) : ""
				printf "| %s | %s | %.1f | %.3f | %.0f | %.1f | %s |\n", cs, T[t], B[k], C[k], F[k],
					rss[k] / 1024, L[k] == "" ? "-" : sprintf("%.1f", L[k])
			}
		}
		printf "\n| case | tool | bandwidth / best peer (>= 1.0) | CPU/GiB / lowest peer | faults/GiB vs lowest peer | peak RSS MiB vs bound (lowest peer) | QD1 mean latency / fio (<= 1.03) |\n"
		printf "|---|---|---|---|---|---|---|\n"
		for (c = 1; c <= nc; c++) {
			cs = cases[c]; bb = 0; bc = -1; bf = -1; br = -1
			for (t = 1; t <= nt[cs]; t++) {
				if (ours(TT[cs, t])) continue
				k = cs SUBSEP TT[cs, t]
				if (B[k] > bb) { bb = B[k]; bp = TT[cs, t] }
				if (bc < 0 || C[k] < bc) { bc = C[k]; cp = TT[cs, t] }
				if (bf < 0 || F[k] < bf) bf = F[k]
				if (br < 0 || rss[k] < br) { br = rss[k]; rp = TT[cs, t] }
			}
			lim = (cs ~ /4M/) ? 0.7 : 1.0
			for (t = 1; t <= nt[cs]; t++) {
				if (!ours(TT[cs, t])) continue
				kc = cs SUBSEP TT[cs, t]
				rb = bb > 0 ? B[kc] / bb : 0; rc = bc > 0 ? C[kc] / bc : 0
				# Run r against the best peer'"'"'s run r, taken in turn: how far
				# the ratio moves from pair to pair (the noise of this machine).
				lo = -1; hi = -1
				for (r = 1; (kc SUBSEP r) in bwr; r++) {
					if (!((cs SUBSEP bp SUBSEP r) in bwr) || bwr[cs, bp, r] <= 0) continue
					x = bwr[kc, r] / bwr[cs, bp, r]
					if (lo < 0 || x < lo) lo = x
					if (x > hi) hi = x
				}
				pr = lo < 0 ? "" : sprintf("; pairs %.2f-%.2f", lo, hi)
				rl = "-"
				if (cs ~ /^read-(64K|4K)-1$/ && L[cs SUBSEP "fio"] > 0) {
					x = L[kc] / L[cs SUBSEP "fio"]
					rl = sprintf("%.3f %s", x, (x <= 1.03) ? "PASS" : "MISS")
				}
				printf "| %s | %s | %.2f (%s%s) %s | %.2f (%s; goal <= %.1f) %s | %.0f vs %.0f | %.1f <= %.1f %s (%s %.1f) | %s |\n",
					cs, TT[cs, t], rb, bp, pr, (rb >= 1.0) ? "PASS" : "MISS", rc, cp, lim,
					(rc <= lim) ? "PASS" : "MISS", F[kc], bf, rss[kc] / 1024, bound[cs],
					(rss[kc] / 1024 <= bound[cs] + 0) ? "PASS" : "MISS", rp, br / 1024, rl
			}
		}
	}' "$RESULTS"
}

main() {
	if [[ "${1:-}" == --report ]]; then
		# Only the table, from the results file of an earlier run (KEEP_WORK=1).
		RESULTS=${2:?--report needs the results file}
		report
		return
	fi
	# Memstore holds every object in RAM: 5 s of 8 x 32 4M writes at 1.5
	# GiB/s (a quiet machine), with about twice the average on one of the 3
	# OSDs, and the image must fit. Only what is written takes memory.
	MC_ARGS=${MC_ARGS:---osd-mem 6G}
	bench_init rados rbd fio numfmt
	local c t0=$SECONDS image=0
	# The rados cases first: their objects are gone before the image is made.
	for c in $CASES; do
		case $c in
		rados-4M-16) rados_case 1 16 ;;
		rados-8x32) rados_case 8 32 ;;
		*) continue ;;
		esac
	done
	for c in $CASES; do
		[[ $c == rados-* ]] && continue
		if ((!image)); then
			image=1
			on_cleanup "rbd rm --no-progress $POOL/$IMAGE"
			rbd create --size "$IMAGE_SIZE" "$POOL/$IMAGE" || die "rbd create $POOL/$IMAGE failed"
			log "filling $POOL/$IMAGE ($IMAGE_SIZE)"
			timed fill rbd bench --io-type write --io-size 4M --io-threads 16 \
				--io-total "$IMAGE_SIZE" --io-pattern seq "$POOL/$IMAGE"
		fi
		rbd_case "$c"
	done
	echo "ccbench vs peers (issue #14): $RUNS alternating runs per tool, medians; DURATION=${DURATION}s IMAGE_SIZE=$IMAGE_SIZE SMALL_TOTAL=$SMALL_TOTAL QD1_TOTAL=$QD1_TOTAL RAND_TOTAL=$RAND_TOTAL; $((SECONDS - t0)) s"
	machine_note
	echo
	report
	[[ -z "${CCBENCH_ATTR_OFF:-}" ]] || attr_queries
	return 0
}

# What the attribution's queries took around each ccbench run (its result's
# attribution.query_seconds: before the clients start, after the last
# completion, and how many OSDs were asked), as medians, and per OSD.
attr_queries() {
	local f
	echo
	echo "attribution queries (ccbench runs, medians): before s, after s, OSDs, per OSD ms"
	for f in "$WORK"/ccbench-*.out; do
		jq -r '.attribution.query_seconds | select(.) | "\(.before) \(.after) \(.osds)"' "$f" 2>/dev/null
	done | sort -n | awk '{ b[NR] = $1; a[NR] = $2; o[NR] = $3 }
	END {
		if (!NR) { print "  none (no result kept an attribution)"; exit }
		m = int((NR + 1) / 2)
		printf "  %.3f s before, %.3f s after, %d OSDs: %.1f ms per OSD (%d runs)\n",
			b[m], a[m], o[m], (b[m] + a[m]) / (o[m] ? o[m] : 1) * 1000, NR
	}'
}

main "$@"
