# Helpers for integration tests. Sourced by run.sh and by each t_*.sh.
# Every test runs against the throwaway cluster run.sh started: CEPH_CONF,
# CCBENCH (the binary) and POOL are set by run.sh.

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_rc WANT CMD...: run CMD, fail unless it exits WANT.
expect_rc() {
	local want=$1
	shift
	local rc=0
	"$@" || rc=$?
	[ "$rc" = "$want" ] || fail "expected exit $want, got $rc: $*"
}

# jget FILE EXPR: evaluate a Python expression on the JSON document d.
jget() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# Objects of the ccbench namespace (or $1) in $POOL.
ns_objects() {
	rados -p "${2:-$POOL}" -N "${1:-ccbench}" ls 2>/dev/null | sort
}

ceph_cli() {
	ceph --connect-timeout 10 "$@"
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
