#!/usr/bin/env bash
# bench/profile.sh - where each tool's client CPU goes, by library: ccbench
# against the peer that makes the same library calls, under `perf record`,
# side by side on one cluster, the tools taking turns, RUNS runs each.
#
# Issue #14 asks for 0.7 x the peer's CPU per GiB on the 4M cases. Both
# tools spend most of it inside librbd/librados, libceph-common (the
# messenger) and the kernel (sockets, page faults). This script measures
# that split: per tool, CPU s/GiB in its own binary and in each library,
# and what the goal leaves for ccbench once its libraries and kernel time
# are paid.
#
# Cases (CASES, in this order):
#   rbd-read-4M-16   ccbench rbd read  vs rbd bench --io-type read   (one pass)
#   rbd-write-4M-16  ccbench rbd write vs rbd bench --io-type write  (one pass)
#   rados-seq-4M-16  ccbench rados seq vs rados bench seq (objects of a write)
#   rados-write-4M-16  ccbench rados write vs rados bench write (DURATION)
#
# usage: bench/profile.sh
#   CCBENCH=build/ccbench RUNS=3 POOL=rbd IMAGE_SIZE=1G DURATION=4 FREQ=1999
#   CASES="..." KEEP_WORK=1 CEPH_CONF=... (otherwise its own cluster, MC_ARGS)
#   bench/profile.sh --report WORK/dso  the tables again from a kept run
#   CCBENCH_BASE=path  also profile this second ccbench binary (tool
#   "ccb-base") in the same alternation, for before/after figures.
set -euo pipefail
PROG=profile
. "$(dirname "$0")/lib.sh"

POOL=${POOL:-rbd}
IMAGE_SIZE=${IMAGE_SIZE:-1G}
DURATION=${DURATION:-4}
FREQ=${FREQ:-1999}
CASES=${CASES:-rbd-read-4M-16 rbd-write-4M-16 rados-seq-4M-16 rados-write-4M-16}
IMAGE=ccb-profile-$$
OP4M=4194304
# Per-run lines in $WORK/dso: CASE TOOL RUN BYTES CPU_S GROUP SHARE(0..1)

# profiled NAME TAG CMD...: CMD under perf record (CPU from
# /usr/bin/time inside it, so perf's own CPU is not counted); the shares
# of its samples by group go to $WORK/dso, tagged "CASE TOOL RUN".
profiled() {
	local name=$1 tag=$2
	shift 2
	perf record -q -F "$FREQ" -o "$WORK/$name.perf" -- \
		/usr/bin/time -o "$WORK/$name.time" -f '%e %U %S %M %F %R' "$@" \
		>"$WORK/$name.out" 2>"$WORK/$name.err" || {
		tail -n 20 "$WORK/$name.err" >&2
		die "$name failed: $*"
	}
	perf report -i "$WORK/$name.perf" --no-children --sort dso -g none --stdio 2>/dev/null |
		awk -v tag="$tag" '
		/^#/ || NF < 2 { next }
		{
			p = $1; sub(/%/, "", p); d = $2
			if (d ~ /kernel/) g = "kernel"
			else if (d ~ /^librbd/) g = "librbd"
			else if (d ~ /^librados/) g = "librados"
			else if (d ~ /^libceph-common/) g = "libceph-common"
			else if (d ~ /^libc\.so/ || d ~ /^ld-linux/) g = "libc+ld"
			else if (d ~ /^libstdc\+\+/) g = "libstdc++"
			else if (d == "ccbench" || d == "rbd" || d == "rados") g = "own binary"
			else g = "other"
			s[g] += p / 100
		}
		END { for (g in s) printf "%s\t%s\t%.5f\n", tag, g, s[g] }' >>"$WORK/dso"
}

# one CASE TOOL RUN BYTES NAME: record the run's bytes and CPU beside its shares.
one() {
	local cpu
	cpu=$(cpu_s "$5")
	sed -i "s/^$1 $2 $3\t/$1\t$2\t$3\t$4\t$cpu\t/" "$WORK/dso"
	awk -v c="$1" -v t="$2" -v r="$3" -v b="$4" -v cpu="$cpu" -v G=$GIB \
		'BEGIN { printf "  %-16s %-11s run %s %6.3f CPU s/GiB\n", c, t, r, cpu / (b / G) }' >&2
}

rbd_case() { # CASE TYPE RUN
	local c=$1 type=$2 run=$3 name extra=() ops t fin
	name=rbdb-$c-$run
	profiled "$name" "$c rbd-bench $run" rbd bench --io-type "$type" --io-size 4M --io-threads 16 \
		--io-total "$IMAGE_SIZE" --io-pattern seq "$POOL/$IMAGE"
	fin=$(rbdb_final "$name")
	read -r ops _ <<<"$fin"
	one "$c" rbd-bench "$run" $((ops * OP4M)) "$name"
	[[ $type == write ]] && extra=(--allow-write-existing)
	for t in "${CC_TOOLS[@]}"; do
		name=${t%%=*}-$c-$run
		profiled "$name" "$c ${t%%=*} $run" "${t#*=}" rbd "$type" --image "$POOL/$IMAGE" \
			"${extra[@]}" --io-size 4M -t 16 --readahead-disable-after 50M -f json -q
		ccb_check "$name"
		one "$c" "${t%%=*}" "$run" "$(ccb_field "$name" bytes)" "$name"
	done
}

rados_case() { # RUN
	local run=$1 name b n t tool rn
	rados -p "$POOL" bench "$DURATION" write -t 16 -b $OP4M --run-name "prof-$run" --no-cleanup \
		>"$WORK/fill-$run.out" 2>&1 || die "rados bench write failed"
	on_cleanup "rados -p $POOL cleanup --run-name prof-$run"
	name=rb-seq-$run
	profiled "$name" "rados-seq-4M-16 rados-bench $run" rados -p "$POOL" bench 600 seq -t 16 \
		--run-name "prof-$run"
	n=$(rb_field "$WORK/$name.out" 'Total reads made')
	one rados-seq-4M-16 rados-bench "$run" $((n * OP4M)) "$name"
	rados -p "$POOL" cleanup --run-name "prof-$run" >/dev/null || die "rados cleanup failed"
	for t in "${CC_TOOLS[@]}"; do
		tool=${t%%=*} rn=prof-${t%%=*}-$run
		"$CCBENCH" rados write -p "$POOL" -b $OP4M -t 16 -d "${DURATION}s" --run-name "$rn" \
			--no-cleanup -f json -q >"$WORK/cfill-$tool-$run.out" || die "ccbench rados write failed"
		on_cleanup "$CCBENCH cleanup -p $POOL --run-name $rn -q"
		name=$tool-seq-$run
		profiled "$name" "rados-seq-4M-16 $tool $run" "${t#*=}" rados seq -p "$POOL" -t 16 \
			-d 600s --run-name "$rn" -f json -q
		ccb_check "$name"
		b=$(ccb_field "$name" bytes)
		one rados-seq-4M-16 "$tool" "$run" "$b" "$name"
		"$CCBENCH" cleanup -p "$POOL" --run-name "$rn" -q >/dev/null || die "ccbench cleanup failed"
	done
}

rados_write_case() { # RUN
	local run=$1 name n t tool rn
	name=rb-write-$run
	on_cleanup "rados -p $POOL cleanup --run-name profw-$run"
	profiled "$name" "rados-write-4M-16 rados-bench $run" rados -p "$POOL" bench "$DURATION" write \
		-t 16 -b $OP4M --run-name "profw-$run" --no-cleanup
	n=$(rb_field "$WORK/$name.out" 'Total writes made')
	one rados-write-4M-16 rados-bench "$run" $((n * OP4M)) "$name"
	rados -p "$POOL" cleanup --run-name "profw-$run" >/dev/null || die "rados cleanup failed"
	for t in "${CC_TOOLS[@]}"; do
		tool=${t%%=*} name=${t%%=*}-write-$run
		profiled "$name" "rados-write-4M-16 $tool $run" "${t#*=}" rados write -p "$POOL" -b $OP4M \
			-t 16 -d "${DURATION}s" -f json -q
		ccb_check "$name"
		one rados-write-4M-16 "$tool" "$run" "$(ccb_field "$name" bytes)" "$name"
	done
}

# The table: per case, CPU s/GiB by group for the peer and each ccbench
# (all runs' CPU share over all runs' bytes), then what the goal leaves.
report() {
	awk -F'\t' -v G=$GIB '
	function ours(t) { return t == "ccbench" || t ~ /^ccb-/ }
	{
		c = $1; t = $2; r = $3
		if (!(c in seen)) { cases[++nc] = c; seen[c] = 1 }
		if (!((c, t) in tseen)) { tseen[c, t] = 1; tl[c] = tl[c] " " t }
		if (!((c, t, r) in run)) { run[c, t, r] = 1; bytes[c, t] += $4; cpu[c, t] += $5 }
		sec[c, t, $6] += $5 * $7
		groups[$6] = 1
		if (!ours(t)) peer[c] = t
	}
	END {
		split("own binary|librbd|librados|libceph-common|libstdc++|libc+ld|kernel|other", order, "|")
		for (i = 1; i <= nc; i++) {
			c = cases[i]; p = peer[c]; n = split(tl[c], T, " ")
			if (bytes[c, p] <= 0) continue
			printf "\n%s: CPU s/GiB by where it ran\n\n| where |", c
			for (k = 1; k <= n; k++) printf " %s |", T[k]
			printf " ccbench - %s |\n|---|", p
			for (k = 1; k <= n; k++) printf "---|"
			printf "---|\n"
			for (j = 1; j in order; j++) {
				g = order[j]
				if (!(g in groups)) continue
				printf "| %s |", g
				for (k = 1; k <= n; k++) printf " %.3f |", sec[c, T[k], g] / (bytes[c, T[k]] / G)
				printf " %+.3f |\n", sec[c, "ccbench", g] / (bytes[c, "ccbench"] / G) - sec[c, p, g] / (bytes[c, p] / G)
			}
			printf "| total |"
			for (k = 1; k <= n; k++) printf " %.3f |", cpu[c, T[k]] / (bytes[c, T[k]] / G)
			tp = cpu[c, p] / (bytes[c, p] / G); tc = cpu[c, "ccbench"] / (bytes[c, "ccbench"] / G)
			own = sec[c, "ccbench", "own binary"] / (bytes[c, "ccbench"] / G)
			printf " %+.3f |\n", tc - tp
			printf "\nccbench / %s: %.2f (goal <= 0.7: %.3f s/GiB). ccbench outside its own binary: %.3f s/GiB = %.2f x %s'"'"'s total; its own binary: %.3f s/GiB (%.1f %%).\n",
				p, tc / tp, 0.7 * tp, tc - own, (tc - own) / tp, p, own, 100 * own / tc
		}
	}' "$WORK/dso"
}

main() {
	if [[ "${1:-}" == --report ]]; then
		# Only the tables, from the dso file of an earlier run (KEEP_WORK=1).
		WORK=$(dirname "${2:?--report needs the dso file}")
		report
		return
	fi
	bench_init rados rbd perf numfmt
	local c run t0=$SECONDS image=0
	: >"$WORK/dso"
	for c in $CASES; do
		case $c in
		rbd-read-4M-16 | rbd-write-4M-16)
			if ((!image)); then
				image=1
				on_cleanup "rbd rm --no-progress $POOL/$IMAGE"
				rbd create --size "$IMAGE_SIZE" "$POOL/$IMAGE" || die "rbd create failed"
				rbd bench --io-type write --io-size 4M --io-threads 16 --io-total "$IMAGE_SIZE" \
					"$POOL/$IMAGE" >/dev/null || die "filling $POOL/$IMAGE failed"
			fi
			log "$c: $RUNS alternating runs"
			for ((run = 1; run <= RUNS; run++)); do
				rbd_case "$c" "$(cut -d- -f2 <<<"$c")" "$run"
			done
			;;
		rados-seq-4M-16)
			log "$c: $RUNS alternating runs"
			for ((run = 1; run <= RUNS; run++)); do rados_case "$run"; done
			;;
		rados-write-4M-16)
			log "$c: $RUNS alternating runs"
			for ((run = 1; run <= RUNS; run++)); do rados_write_case "$run"; done
			;;
		*) die "CASES: unknown '$c'" ;;
		esac
	done
	echo "where the client CPU goes (issue #14): $RUNS alternating runs per tool, perf record -F $FREQ; IMAGE_SIZE=$IMAGE_SIZE DURATION=${DURATION}s; $((SECONDS - t0)) s"
	machine_note
	report
}

main "$@"
