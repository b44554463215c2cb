# Helpers for integration tests. Sourced by run.sh and by each t_*.sh.
# Every test runs against the throwaway cluster run.sh started: CEPH_CONF,
# CCBENCH (the binary) and POOL are set by run.sh.

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# ---- a settled cluster, and what an earlier test left ----------------------
# pgs_py SCRIPT [ARG]: SCRIPT (Python, ARG in sys.argv[1]) on the list pgs
# of the PGs (`ceph pg ls`); status 1 when the monitor does not answer
# (bounded), else SCRIPT's.
pgs_py() {
	local out
	out=$(timeout 60 ceph --connect-timeout 10 pg ls -f json 2>/dev/null) || return 1
	python3 -c 'import json, sys
d = json.load(sys.stdin)
pgs = d.get("pg_stats", []) if isinstance(d, dict) else d
'"$1" "${@:2}" <<<"$out"
}

# The primaries of the PGs that are not active+clean, one word each ("?" for
# a PG with none), or with "acting" every OSD of their acting sets; the
# first five such PGs and their states on stderr; status 1 when the monitor
# does not answer (bounded).
unclean_primaries() {
	pgs_py '
# Settled: active and clean; a scrub or snap trim may run (a restarted
# OSD schedules scrubs), laggy, peering, waiting or degraded may not.
ok = {"active", "clean", "scrubbing", "deep", "snaptrim", "snaptrim_wait"}
def settled(st):
    parts = set(st.split("+"))
    return {"active", "clean"} <= parts and parts <= ok
bad = [p for p in pgs if not settled(p.get("state", ""))]
who = "acting" if len(sys.argv) > 1 else "primary"
ids = set()
for p in bad:
    if who == "acting":
        ids |= {str(o) for o in p.get("acting", []) if o >= 0}
    else:
        ids.add(str(p["acting_primary"]) if p.get("acting_primary", -1) >= 0 else "?")
print(" ".join(sorted(ids)))
for p in bad[:5]:
    print("%s %s" % (p.get("pgid"), p.get("state")), file=sys.stderr)' ${1:+"$1"}
}

# pgs_clean_within SECS: 0 once every PG is settled; the caller's $stuck
# holds what unclean_primaries last said.
pgs_clean_within() {
	local i
	for ((i = 0; i < $1; i++)); do
		stuck=$(unclean_primaries 2>/dev/null) && [ -z "$stuck" ] && return 0
		sleep 1
	done
	return 1
}
# recovering_objects: when every PG not active+clean is active and only
# recovering or backfilling (or waiting to), the objects they still have
# to move (degraded + misplaced), on stdout; status 1 otherwise (a PG
# laggy, peering, down, or the monitor silent).
recovering_objects() {
	pgs_py '
moving = {"active", "clean", "recovering", "recovery_wait", "backfilling", "backfill_wait",
          "remapped", "degraded", "undersized", "forced_recovery", "forced_backfill",
          "scrubbing", "deep", "snaptrim", "snaptrim_wait"}
left = 0
for p in pgs:
    parts = set(p.get("state", "").split("+"))
    if {"active", "clean"} <= parts:
        continue
    if "active" not in parts or not parts <= moving:
        sys.exit(1)
    st = p.get("stat_sum", {})
    left += st.get("num_objects_degraded", 0) + st.get("num_objects_misplaced", 0)
print(left)'
}

# recovered_within SECS: 0 once every PG is active+clean, waiting while
# the PGs recover and the objects left to move go down from one 30 s look
# to the next; 1 when a PG is not recovering, or nothing moved in 30 s.
recovered_within() {
	local i left last=
	for ((i = 0; i < $1; i++)); do
		stuck=$(unclean_primaries 2>/dev/null) && [ -z "$stuck" ] && return 0
		if ((i % 30 == 0)); then
			left=$(recovering_objects) || return 1
			[ -z "$last" ] || [ "$left" -lt "$last" ] || return 1
			last=$left
		fi
		sleep 1
	done
	return 1
}

restart_osds() { # restart_osds ID...: stop and start each ("?" skipped)
	local id mc
	mc=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/minicluster.sh
	for id in "$@"; do
		[ "$id" = "?" ] && continue
		"$mc" osd-stop "$id" "$CLUSTER_DIR" >/dev/null 2>&1
		"$mc" osd-start "$id" "$CLUSTER_DIR" >/dev/null 2>&1 || echo "note: osd.$id did not come back up"
	done
}
# settle_pgs WHEN [SECS]: wait up to SECS (60) for every PG to be
# active+clean. Pacific can leave a PG "laggy" for good after its OSDs were
# frozen (every op on it then waits "for readable"; seen after t_zz_chaos,
# and after t_rbd_prefill_stall, whose restore then timed out): restart the
# primaries of the PGs still not clean (TERM keeps memstore's objects),
# which re-peers them, and wait again, 30 s; if some are still not clean,
# restart every OSD of their acting sets and wait a minute (seen once: the
# primaries' restart was not enough). Said as a note line with the PGs'
# states: the test cluster's fault, not the test's. Status 1 if the PGs
# stay unclean. PGs that recover (size 1 pools remap while an OSD is out,
# and move back after) are no fault: while the objects left to move go
# down, up to 4 minutes more before any restart (a restart starts their
# recovery over; CI run K of 2026-12-04 failed t_rbd_prefill_stall so,
# 2 GB to move on a loaded host).
settle_pgs() {
	local when=$1 secs=${2:-60} stuck=? left
	pgs_clean_within "$secs" && return 0
	if left=$(recovering_objects); then
		echo "note: $when: PGs recovering after $secs s ($left objects to move); waiting while they move"
		recovered_within 240 && return 0
		echo "note: $when: the recovery stopped moving objects, or a PG stopped recovering"
	fi
	echo "note: $when: PGs not active+clean after $secs s (primaries: ${stuck:-?}); restarted those primaries"
	# shellcheck disable=SC2086 # one word per OSD id
	restart_osds $stuck
	pgs_clean_within 30 && return 0
	# A PG whose replicas were frozen too may need them re-peered as well:
	# restart every OSD of its acting set, and give it a minute.
	stuck=$(unclean_primaries acting 2>/dev/null) || stuck=
	echo "note: $when: PGs still not active+clean after 30 s; restarting their acting OSDs (${stuck:-none named}): $(unclean_primaries 2>&1 >/dev/null | tr '\n' ';')"
	# shellcheck disable=SC2086
	restart_osds $stuck
	pgs_clean_within 60 && return 0
	echo "note: $when: PGs still not active+clean after the restarts: $(unclean_primaries 2>&1 >/dev/null | tr '\n' ';')"
	return 1
}

# The images in pool rbd that were not there when the test started
# (run.sh exports the list as CCB_IT_IMAGES_BEFORE): a test checks for what
# it left itself, so that an image an earlier failed test left fails that
# test only.
new_images() {
	comm -13 <(printf '%s\n' "${CCB_IT_IMAGES_BEFORE:-}" | sort) \
		<(timeout 60 rbd ls rbd 2>/dev/null | sort) | grep . || true
}

# expect_rc WANT CMD...: run CMD, fail unless it exits WANT.
expect_rc() {
	local want=$1
	shift
	local rc=0
	"$@" || rc=$?
	[ "$rc" = "$want" ] || fail "expected exit $want, got $rc: $*"
}

# distrusts FILE: the distrust lines of a capacity search, or of every run
# of a sweep's points, joined by " | "; empty when it has none.
distrusts() {
	jget "$1" '" | ".join(e["text"] for e in (d.get("explain") or []) + [x for p in d.get("points") or [] for r in p.get("runs") or [] for x in r.get("explain") or []] if e.get("severity") == "distrust")'
}

# once_more_if_distrusted FILE CHECK CMD...: CHECK (a command) is what the
# test asserts of FILE, which CMD writes. A search on a host whose CPUs
# the other lanes' clusters hold can find less than the cluster carries,
# and then says so (distrust: the client lagged, its CPU was busy; CI of
# 2026-12-04 found 43.7 of 80 ops/s so). Only then CMD runs once more:
# a figure out of range that the search did not distrust fails at once,
# and so does a second miss.
once_more_if_distrusted() {
	local file=$1 check=$2 why
	shift 2
	"$check" && return 0
	why=$(distrusts "$file")
	[ -n "$why" ] || return 0 # the caller's check fails it
	echo "note: $file: missed, and the search said why (${why:0:300}); once more"
	"$@"
}

# expect_gate RC BASE CUR [ARGS...]: compare BASE CUR gates with exit RC
# (its output on stdout). A result a loaded host marked distrust (a busy
# client CPU beside two other lanes' clusters, CI of 2026-12-04) is one
# compare must refuse: then the refusal is checked (exit 2, naming the
# distrust) and the gate is taken with --allow-distrust. A result with no
# distrust in it that compare refuses fails, as before.
expect_gate() {
	local want=$1 base=$2 cur=$3 rc=0
	shift 3
	"$CCBENCH" compare "$base" "$cur" "$@" 2>gate.err || rc=$?
	if [ "$rc" = 2 ] && grep -q '"distrust"' "$base" "$cur"; then
		grep -q ": distrust: .*(--allow-distrust gates on it anyway)" gate.err ||
			fail "compare refused without naming the distrust: $(cat gate.err)"
		echo "note: compare $base $cur: refused a distrusted result, gated with --allow-distrust: $(head -c 300 gate.err)" >&2
		rc=0
		"$CCBENCH" compare "$base" "$cur" "$@" --allow-distrust || rc=$?
	fi
	[ "$rc" = "$want" ] || fail "compare $base $cur $*: expected exit $want, got $rc: $(cat gate.err)"
}

# gq ARGS...: grep -q that reads its input to the end. Under pipefail,
# `writer | grep -q X` fails when grep has matched and gone before the
# writer's next line (bash's builtins write line by line): the writer dies
# of SIGPIPE (141) and the pipe fails though X was there (CI:
# t_osd_latency's "no override to keep: osd.0 ms_inject_delay_max=0.5").
gq() { grep "$@" >/dev/null; }

# jget FILE EXPR: evaluate a Python expression on the JSON document d.
# A reader that stops early (`jget F E | grep -q X`, under pipefail) is not
# an error of jget's: a closed pipe ends it quietly with status 0.
jget() {
	python3 -c '
import json, os, sys
d = json.load(open(sys.argv[1]))
try:
    print(eval(sys.argv[2]))
    sys.stdout.flush()
except BrokenPipeError:
    os._exit(0)' "$1" "$2"
}

# Objects of the ccbench namespace (or $1) in $POOL.
ns_objects() {
	rados -p "${2:-$POOL}" -N "${1:-ccbench}" ls 2>/dev/null | sort
}

ceph_cli() {
	ceph --connect-timeout 10 "$@"
}

# quota_pool NAME BYTES: a pool of the test's own for rados and rbd,
# removed when the test exits, with a quota of BYTES (0: none yet); the
# osdmap flags it full_quota once what it holds passes that.
drop_pool() { ceph_cli osd pool rm "$1" "$1" --yes-i-really-really-mean-it >/dev/null 2>&1 || true; }
quota_pool() {
	ceph_cli osd pool create "$1" 16 >/dev/null 2>&1
	on_exit drop_pool "$1"
	ceph_cli osd pool application enable "$1" rados >/dev/null 2>&1
	ceph_cli osd pool application enable "$1" rbd --yes-i-really-mean-it >/dev/null 2>&1
	ceph_cli osd pool set-quota "$1" max_bytes "$2" >/dev/null
}

# no_osd_delay: true when no OSD injects a message delay (what
# --osd-latency sets), asked of each OSD itself (`tell osd.N config diff`).
# The OSD ids are listed on the first call.
no_osd_delay() {
	local id
	[ -n "${_ccb_osd_ids:-}" ] || _ccb_osd_ids=$(ceph_cli osd ls)
	for id in $_ccb_osd_ids; do
		timeout 60 ceph --connect-timeout 10 tell "osd.$id" config diff 2>/dev/null |
			grep -q '"ms_inject_delay_probability"' && return 1
	done
	return 0
}

# osd_delay ID TYPE MAX_S: osd.ID delays each message it receives from
# TYPE ("client": clients' ops; "osd": its peers', a replica's writes) by a
# uniform 0 to MAX_S seconds (ms_inject_delay_*, read when a connection is
# made: a test's new clients get it; "osd" also needs `osd down ID`, after
# which the OSD's peers connect again). osd_delay_clear ID puts it back
# (probability first: the delays stop at once), for an on_exit.
osd_delay() {
	ceph_cli tell "osd.$1" config set ms_inject_delay_type "$2" >/dev/null &&
		ceph_cli tell "osd.$1" config set ms_inject_delay_max "$3" >/dev/null &&
		ceph_cli tell "osd.$1" config set ms_inject_delay_probability 1 >/dev/null
}
osd_delay_clear() {
	local k
	ceph_cli tell "osd.$1" config set ms_inject_delay_probability 0 >/dev/null 2>&1 || true
	for k in ms_inject_delay_probability ms_inject_delay_max ms_inject_delay_type; do
		ceph_cli tell "osd.$1" config unset "$k" >/dev/null 2>&1 || true
	done
}

# group_members N PREFIX CMD...: N members of a group at once, each CMD...
# (which names the group) with stdout in PREFIX1.json ... and stderr in
# PREFIX1.err ...; waits for all of them. RC: 0, or a member's exit status.
group_members() {
	local n=$1 prefix=$2 i p pids=()
	shift 2
	for ((i = 1; i <= n; i++)); do
		"$@" >"$prefix$i.json" 2>"$prefix$i.err" &
		pids+=($!)
	done
	RC=0
	for p in "${pids[@]}"; do
		wait "$p" || RC=$?
	done
}

# elapsed CMD...: sets ELAPSED (seconds, integer) and RC.
timed() {
	local s e
	s=$(date +%s.%N)
	RC=0
	"$@" || RC=$?
	e=$(date +%s.%N)
	ELAPSED=$(python3 -c "print(int(round($e - $s)))")
}

# Wait until all OSDs are up and in again (after a test paused one).
wait_osds_up() {
	local i
	for i in $(seq 1 60); do
		if ceph_cli osd stat -f json 2>/dev/null |
			python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["num_up_osds"]==d["num_osds"] else 1)'; then
			return 0
		fi
		sleep 1
	done
	fail "OSDs did not come back up"
}

# jcheck FILE EXPR...: every Python expression on the JSON document d must
# be true (one interpreter for all of them: python3 starts slowly).
jcheck() {
	python3 - "$@" <<'PY' || fail "jcheck $1"
import json, sys
d = json.load(open(sys.argv[1]))
bad = [e for e in sys.argv[2:] if not eval(e)]
for e in bad:
    print("jcheck %s: false: %s" % (sys.argv[1], e), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# expect_refused [--within SECS] [--one] PATTERN CMD...: CMD refuses bad
# input: exit 2 with PATTERN (grep) on its stderr. --within: in at most
# SECS seconds (the tests point such runs at a monitor nobody answers for,
# so a connect attempt would take longer than that). --one: one line of
# output in all, stdout and stderr, besides the "Try ..." hint. CMD's
# stderr stays in refused.err for further checks.
expect_refused() {
	local within="" one="" pat n
	while :; do
		case $1 in
		--within) within=$2 && shift 2 ;;
		--one) one=1 && shift ;;
		*) break ;;
		esac
	done
	pat=$1
	shift
	timed "$@" >refused.out 2>refused.err
	[ "$RC" = 2 ] || fail "exit $RC, not 2, for: $*: $(cat refused.out refused.err)"
	grep -q -- "$pat" refused.err || fail "message for $* lacks '$pat': $(cat refused.err)"
	[ -z "$within" ] || [ "$ELAPSED" -le "$within" ] ||
		fail "$ELAPSED s to refuse (more than $within s: did it connect?): $*"
	if [ -n "$one" ]; then
		n=$(cat refused.out refused.err | grep -v '^Try ' | grep -c . || true)
		[ "$n" = 1 ] || fail "not one message ($n lines) for $*: $(cat refused.out refused.err)"
	fi
}

# dead_conf [FILE]: write FILE (dead.conf) naming a mon nobody listens on
# and this cluster's keyring, so that any attempt to connect waits for
# --connect-timeout. refused_fast PATTERN ARGS...: ccbench ARGS against
# it is refused within 2 s with one message matching PATTERN: bad input
# is answered before the cluster is touched.
dead_conf() {
	printf '[global]\nmon host = 127.0.0.1:9\n[client]\nkeyring = %s/keyring\n' "$CLUSTER_DIR" \
		>"${1:-dead.conf}"
}
dead() { "$CCBENCH" "$@" -c dead.conf --connect-timeout 20s; }
refused_fast() { expect_refused --within 2 --one "$1" dead "${@:2}"; }

# usecs SECS: SECS (such as 10 or 2.5) in microseconds.
usecs() {
	local i=${1%%.*} f
	f=${1#"$i"}
	f=${f#.}000000
	echo $((10#${i:-0} * 1000000 + 10#${f:0:6}))
}

# poll SECS CMD...: run CMD every 0.1 s until it succeeds (0) or SECS
# seconds have passed (1).
poll() {
	local end
	end=$((${EPOCHREALTIME/./} + $(usecs "$1")))
	shift
	until "$@"; do
		[ "${EPOCHREALTIME/./}" -lt "$end" ] || return 1
		sleep 0.1
	done
}

# wait_for SECS WHAT CMD...: poll CMD until it succeeds; fail, naming WHAT,
# if it has not within SECS seconds. The bound is generous (a loaded host),
# never a measure of speed.
wait_for() {
	local secs=$1 what=$2
	shift 2
	poll "$secs" "$@" || fail "not within $secs s: $what"
}

# wait_grep FILE ERE [SECS]: until FILE holds ERE (grep -E), 60 s unless told.
wait_grep() {
	poll "${3:-60}" grep -qsE -- "$2" "$1" ||
		fail "no '$2' in $1 after ${3:-60} s: $(tail -5 "$1" 2>/dev/null)"
}

# running PID: PID is a process that has not exited (a zombie has).
running() {
	local st
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	st=${st##*) }
	[ "${st%% *}" != Z ]
}
exited() { ! running "$1"; }

# signal_wait PID SIG WANT WITHIN [LOG]: send SIG to PID, a background job
# of this shell, and wait for it: it must exit WANT within WITHIN seconds
# (rounded, as `timed` does). Sets RC and ELAPSED. One still running after
# that is killed (SIGKILL) and the test fails: a hang cannot stall it.
# LOG (the run's stderr) ends the failure message.
signal_wait() {
	local pid=$1 sig=$2 want=$3 within=$4 log=${5:-} t0 tail=""
	kill -"$sig" "$pid" 2>/dev/null || fail "SIG$sig: process $pid is gone already"
	t0=${EPOCHREALTIME/./}
	poll "$within.5" exited "$pid" || {
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		[ -z "$log" ] || tail=": $(tail -5 "$log")"
		fail "SIG$sig: still running $within s later (killed)$tail"
	}
	RC=0
	wait "$pid" || RC=$?
	ELAPSED=$(((${EPOCHREALTIME/./} - t0 + 500000) / 1000000))
	[ -z "$log" ] || tail=": $(tail -5 "$log")"
	[ "$RC" = "$want" ] || fail "SIG$sig: exit $RC, want $want$tail"
	[ "$ELAPSED" -le "$within" ] || fail "SIG$sig: $ELAPSED s to stop, more than $within s"
}

# on_exit CMD...: run CMD when the test exits, pass or fail, after the
# commands registered later (a stack, unlike EXIT traps that replace each
# other). A test's own `trap ... EXIT` replaces the stack: use one or the other.
_ccb_on_exit=()
_ccb_run_on_exit() {
	local i
	for ((i = ${#_ccb_on_exit[@]} - 1; i >= 0; i--)); do
		eval "${_ccb_on_exit[i]}" || true
	done
}
on_exit() {
	_ccb_on_exit+=("$(printf '%q ' "$@")")
	trap _ccb_run_on_exit EXIT
}

# Lines a test prints as "note: ..." are shown under its PASS line by run.sh:
# figures worth reading (timings, counts), never a substitute for a check.

# own_cluster NAME [minicluster start options]: a throwaway cluster of the
# test's own (in $PWD/NAME, 1 OSD of 512M unless told), for what would
# disturb the shared one (OSD restarts, mon addresses, scheduler
# settings); stopped when the test exits. Sets OWN_CONF and OWN_DIR; the
# test points its commands there (CEPH_CONF=$OWN_CONF). About 10 s.
own_cluster() {
	local name=$1
	shift
	OWN_MC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/minicluster.sh
	OWN_DIR=$PWD/$name
	OWN_CONF=$OWN_DIR/ceph.conf
	on_exit "$OWN_MC" stop "$OWN_DIR"
	# Once more after a failed start: beside other lanes a loaded host can
	# keep a step past minicluster's 60 s (CI: "rbd pool init" of a
	# 3-OSD bluestore cluster). A second failure is the test's.
	"$OWN_MC" start --osds 1 --osd-mem 512M "$@" "$OWN_DIR" >/dev/null 2>"$name.start.log" || {
		echo "note: own cluster $name did not start, once more: $(tail -1 "$name.start.log")"
		"$OWN_MC" stop "$OWN_DIR" >/dev/null 2>&1 || true
		"$OWN_MC" start --osds 1 --osd-mem 512M "$@" "$OWN_DIR" >/dev/null 2>"$name.start.log" ||
			fail "own cluster $name did not start twice: $(tail -5 "$name.start.log")"
	}
}

# own_osd_restart: restart the own cluster's osd.0 (settings read at start).
own_osd_restart() {
	"$OWN_MC" osd-stop 0 "$OWN_DIR" >/dev/null 2>&1 || fail "osd-stop 0 of $OWN_DIR"
	"$OWN_MC" osd-start 0 "$OWN_DIR" >/dev/null 2>&1 || fail "osd-start 0 of $OWN_DIR"
}
