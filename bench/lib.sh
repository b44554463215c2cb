# shellcheck shell=bash
# bench/lib.sh - helpers shared by bench/vs-rados-bench.sh and
# bench/vs-rbd-bench.sh. Sourced, not run. Not part of the tests.
#
# Provides: a scratch directory ($WORK), a throwaway cluster unless the
# caller set CEPH_CONF, an EXIT trap that runs the registered cleanups (in
# reverse order) and then stops the cluster, a timed runner that records
# wall/user/sys seconds and peak RSS of a command (/usr/bin/time), a
# per-run result file and a summary that prints means and goal verdicts.
#
# Environment: CCBENCH (default build/ccbench), RUNS (default 3),
# CEPH_CONF (use this cluster instead of starting one), MC_ARGS (more
# arguments of `minicluster.sh start` for that cluster), KEEP_WORK=1 (keep
# $WORK with every raw output for inspection).

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(dirname "$BENCH_DIR")
CCBENCH=${CCBENCH:-$REPO_DIR/build/ccbench}
RUNS=${RUNS:-3}
PROG=${PROG:-$(basename "$0")}
GIB=1073741824
MIB=1048576

WORK=
CLUSTER_DIR=
CLEANUPS=() # shell snippets run by on_exit, last registered first
RESULTS=    # one tab-separated line per run: CASE TOOL RUN MIB_S BYTES CPU_S RSS_KIB

log() { echo "$PROG: $*" >&2; }
die() {
	log "error: $*"
	exit 1
}

# on_cleanup SNIPPET: run SNIPPET (errors ignored) when the script exits.
on_cleanup() { CLEANUPS+=("$1"); }

on_exit() {
	local rc=$? i
	trap - EXIT INT TERM
	for ((i = ${#CLEANUPS[@]} - 1; i >= 0; i--)); do
		# Bounded: a broken cluster must not hang the exit.
		eval "timeout 120 ${CLEANUPS[i]}" >/dev/null 2>&1 || true
	done
	if [[ -n "$CLUSTER_DIR" ]]; then
		log "stopping the throwaway cluster $CLUSTER_DIR"
		"$REPO_DIR/scripts/minicluster.sh" stop "$CLUSTER_DIR" >/dev/null 2>&1 ||
			log "warning: minicluster.sh stop $CLUSTER_DIR failed"
	fi
	if [[ -n "$WORK" ]]; then
		if [[ "${KEEP_WORK:-0}" == 1 ]]; then
			log "raw outputs kept in $WORK"
		else
			rm -rf -- "$WORK"
		fi
	fi
	exit "$rc"
}

# bench_init: check the tools, make $WORK, set the traps, get a cluster.
bench_init() {
	local t
	for t in "$CCBENCH" /usr/bin/time jq awk "$@"; do
		command -v "$t" >/dev/null ||
			die "$t not found (CCBENCH=$CCBENCH; apt-get install time jq fio linux-perf)"
	done
	if ! [[ "${DRAIN_PCT:-40}" =~ ^[0-9]+$ ]] || ((${DRAIN_PCT:-40} < 1 || ${DRAIN_PCT:-40} > 99)); then
		log "DRAIN_PCT '${DRAIN_PCT}': a whole percentage from 1 to 99"
		exit 2
	fi
	WORK=$(mktemp -d /tmp/ccb-bench.XXXXXX)
	RESULTS=$WORK/results
	: >"$RESULTS"
	trap on_exit EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	if [[ -n "${CEPH_CONF:-}" ]]; then
		log "using the cluster of CEPH_CONF=$CEPH_CONF (objects and images made here are removed at exit)"
	else
		CLUSTER_DIR=$WORK/cluster
		log "starting a throwaway cluster in $CLUSTER_DIR"
		# shellcheck disable=SC2086 # MC_ARGS: words on purpose
		"$REPO_DIR/scripts/minicluster.sh" start ${MC_ARGS:-} "$CLUSTER_DIR" >"$WORK/minicluster.out" \
			2>"$WORK/minicluster.err" || {
			cat "$WORK/minicluster.err" >&2
			die "minicluster.sh start $CLUSTER_DIR failed"
		}
		export CEPH_CONF=$CLUSTER_DIR/ceph.conf
		# minicluster.sh tunes failure detection for tests (6 s grace); a
		# 2-core machine saturated by 8 x 32 x 4M in flight starves OSD
		# heartbeats that long, OSDs get marked down and stop themselves
		# (osd_max_markdown_count). A benchmark wants the opposite.
		ceph config set global osd_heartbeat_grace 60 >/dev/null &&
			ceph config set global osd_max_markdown_count 1000 >/dev/null ||
			die "ceph config set (heartbeat grace) failed"
	fi
}

# drained: wait (up to 120 s) until no OSD is more than DRAIN_PCT (40) %
# used and the pool ($POOL) is not flagged full. A delete frees memstore's memory
# at once, but the usage the full flag is set from reaches the mon seconds
# later, and 32 PGs put about twice the average on one OSD: on a quiet
# machine three runs of 8 x 32 x 4M for 5 s back to back filled one OSD
# that held nothing once its statistics caught up.
drained() {
	local t0=$SECONDS max full df
	while :; do
		df=$(timeout 30 ceph --connect-timeout 10 osd df -f json 2>/dev/null) || df=
		max=$(jq '[.nodes[].utilization] | max // 0 | floor' <<<"$df" 2>/dev/null) || max=100
		full=$(timeout 30 ceph --connect-timeout 10 osd dump -f json 2>/dev/null |
			jq -r --arg p "${POOL:-rbd}" '.pools[] | select(.pool_name == $p) | .flags_names' \
				2>/dev/null) || full=full
		if ((max <= ${DRAIN_PCT:-40})) && [[ ",$full," != *,full,* ]]; then
			break
		fi
		((SECONDS - t0 < 120)) || {
			jq -c '[.nodes[] | {name, kb, kb_used, kb_avail, utilization}]' <<<"$df" >&2 || true
			die "an OSD stays ${max} % used (pool flags: $full) 120 s after the cleanups"
		}
		sleep 2
	done
	((SECONDS - t0 < 5)) || log "waited $((SECONDS - t0)) s for the OSDs' usage to come down"
}

# timed NAME CMD...: run CMD with stdout in $WORK/NAME.out, stderr in
# $WORK/NAME.err and "wall user sys maxrss_kib major_faults minor_faults"
# in $WORK/NAME.time.
# Fails (with CMD's stderr shown) when CMD fails.
timed() {
	local name=$1
	shift
	if ! /usr/bin/time -o "$WORK/$name.time" -f '%e %U %S %M %F %R' "$@" \
		>"$WORK/$name.out" 2>"$WORK/$name.err"; then
		tail -n 20 "$WORK/$name.err" >&2
		die "$name failed: $*"
	fi
}

# timed_start NAME CMD...: like timed, in the background (collect with wait).
timed_start() {
	local name=$1
	shift
	/usr/bin/time -o "$WORK/$name.time" -f '%e %U %S %M %F %R' "$@" \
		>"$WORK/$name.out" 2>"$WORK/$name.err" &
}

# cpu_s NAME: user + system seconds.  rss_kib NAME: peak RSS in KiB.
cpu_s() { tail -n 1 "$WORK/$1.time" | awk '{ printf "%.3f", $2 + $3 }'; }
rss_kib() { tail -n 1 "$WORK/$1.time" | awk '{ print $4 }'; }
# faults NAME: page faults, major + minor.
faults() { tail -n 1 "$WORK/$1.time" | awk '{ print $5 + $6 }'; }

# rb_field FILE LABEL: the value after "LABEL:" in rados bench output.
rb_field() {
	awk -F: -v l="$2" '$1 == l { gsub(/ /, "", $2); print $2; found = 1 } END { exit !found }' "$1" ||
		die "no '$2' in $1"
}

# rbdb_final NAME: "OPS OPS_PER_SEC" from rbd bench's final line,
# "elapsed: 16   ops: 256   ops/sec: 15.2345   bytes/sec: 61 MiB/s".
rbdb_final() {
	local f
	f=$(awk '$1 == "elapsed:" { print $4, $6 }' "$WORK/$1.out" | tail -n 1)
	[[ -n "$f" ]] || die "$1: no final 'elapsed:' line"
	echo "$f"
}

# The ccbench binaries that take part: TOOL=PATH (CCBENCH, and
# CCBENCH_BASE as "ccb-base" for before/after figures from one run).
CC_TOOLS=("ccbench=$CCBENCH")
[[ -n "${CCBENCH_BASE:-}" ]] && CC_TOOLS+=("ccb-base=$CCBENCH_BASE")

# ccb_field NAME FIELD: a top-level field of a ccbench JSON result.
ccb_field() { jq -er ".$2" "$WORK/$1.out"; }

# ccb_check NAME: the ccbench result says status ok.
ccb_check() {
	local st
	st=$(ccb_field "$1" status) || die "$1: no ccbench JSON result"
	[[ "$st" == ok ]] || die "$1: ccbench status $st ($(jq -r .reason "$WORK/$1.out"))"
}

# record CASE TOOL RUN MIB_S BYTES CPU_S RSS_KIB
record() {
	local IFS=$'\t'
	echo "$*" >>"$RESULTS"
	awk -v c="$1" -v t="$2" -v r="$3" -v bw="$4" -v b="$5" -v cpu="$6" -v rss="$7" \
		-v G=$GIB 'BEGIN { printf "  %-26s %-12s run %s  %9.1f MiB/s  %6.2f GiB  %6.2f CPU s  %6.2f CPU s/GiB  %7.1f MiB RSS\n",
		c, t, r, bw, b / G, cpu, cpu / (b / G), rss / 1024 }' >&2
}

# summary_header: the column titles of the summary table.
summary_header() {
	printf '%-26s %-12s %-28s %10s %10s %10s\n' CASE TOOL 'MiB/s per run' 'MiB/s mean' 'CPU s/GiB' 'RSS MiB'
	printf '%-26s %-12s %-28s %10s %10s %10s\n' -------------------------- ------------ \
		---------------------------- ---------- ---------- ----------
}

# summary_row CASE TOOL: per-run bandwidths, the mean, CPU seconds per GiB
# (all runs' CPU over all runs' bytes) and the peak RSS (largest run).
# Prints the row to stdout and leaves "MEAN CPU_PER_GIB RSS_MIB" in
# $ROW for the verdicts.
summary_row() {
	ROW=$(awk -F'\t' -v c="$1" -v t="$2" -v G=$GIB '
		$1 == c && $2 == t { runs = runs sprintf("%s%.1f", n ? " " : "", $4); n++
			bw += $4; bytes += $5; cpu += $6; if ($7 > rss) rss = $7 }
		END { if (!n) exit 1
			printf "%s|%.1f %.3f %.1f\n", runs, bw / n, cpu / (bytes / G), rss / 1024 }' "$RESULTS") ||
		die "no results for $1 $2"
	local runs=${ROW%%|*}
	ROW=${ROW#*|}
	local mean cpg rss
	read -r mean cpg rss <<<"$ROW"
	printf '%-26s %-12s %-28s %10s %10s %10s\n' "$1" "$2" "$runs" "$mean" "$cpg" "$rss"
}

# verdict LABEL VALUE OP LIMIT: print "LABEL: VALUE (goal OP LIMIT) PASS|MISS".
verdict() {
	awk -v l="$1" -v v="$2" -v op="$3" -v lim="$4" 'BEGIN {
		ok = (op == ">=") ? (v >= lim) : (op == "<=") ? (v <= lim) : (v < lim)
		printf "    %-44s %8.2f  (goal %s %.2f)  %s\n", l, v, op, lim, ok ? "PASS" : "MISS" }'
}

# ratio A B: A / B with 3 decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

# machine_note: one line describing where the figures come from.
machine_note() {
	echo "$(date -u +%Y-%m-%dT%H:%MZ)  $(nproc) CPUs  load average $(cut -d' ' -f1-3 /proc/loadavg)  ccbench $CCBENCH  ceph $(ceph --version 2>/dev/null | awk '{print $3}')"
}
