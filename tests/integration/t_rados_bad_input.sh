# Bad input: one message naming the option, exit 2, and nothing sent to the
# cluster. The conf points at a mon that does not exist, so any attempt to
# connect would take --connect-timeout; bad input must be refused at once.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cat >dead.conf <<CONF
[global]
mon host = 127.0.0.1:9
[client]
keyring = $CLUSTER_DIR/keyring
CONF
check() { # check PATTERN ARGS...: exit 2 within 2 s, message matches PATTERN
	local pat=$1
	shift
	timed "$CCBENCH" "$@" -c dead.conf --connect-timeout 20s
	[ "$RC" = 2 ] || fail "exit $RC for: $*"
	[ "$ELAPSED" -le 2 ] || fail "took $ELAPSED s (touched the cluster?): $*"
	local msg
	msg=$("$CCBENCH" "$@" -c dead.conf 2>&1 || true)
	[ "$(printf '%s\n' "$msg" | grep -v '^Try ' | grep -c .)" = 1 ] || fail "not one message: $msg"
	printf '%s' "$msg" | grep -q -- "$pat" || fail "message for $* lacks '$pat': $msg"
}
check "queue-depth '0'" rados write -p x -t 0
check "queue-depth '1025'" rados write -p x -t 1025
check "op-size '0'" rados write -p x -b 0
check "op-size '4Q'" rados write -p x -b 4Q
check "larger than --object-size" rados write -p x -b 8M --object-size 4M
check "not a multiple" rados write -p x -b 3M --object-size 8M
check "duration '10parsecs'" rados write -p x -d 10parsecs
check "total '99999999999999999999'" rados write -p x --total 99999999999999999999
check "unknown option" rados write -p x --frobnicate
check "pool: required" rados write
check "unknown command" frobnicate
check "expected write, seq or rand" rados bogus
check "no such librados/librbd option" rados write -p x -o no_such_option=1
check "invalid value" rados write -p x -o rados_osd_op_timeout=banana
check "expected KEY=VALUE" rados write -p x -o novalue
check "run-name 'a.b'" rados write -p x --run-name a.b
check "give --run-name" cleanup -p x
timed "$CCBENCH" rados write -p x -c /nonexistent.conf
[ "$RC" = 2 ] || fail "unreadable conf: $RC"
timed "$CCBENCH" rados write -p x -c dead.conf -k /nonexistent.keyring
[ "$RC" = 2 ] || fail "unreadable keyring: $RC"

# A missing pool needs the cluster to tell, but is still bad input.
expect_rc 2 "$CCBENCH" rados write -p no_such_pool -d 1s -q
msg=$("$CCBENCH" rados write -p no_such_pool -d 1s -q 2>&1 || true)
printf '%s' "$msg" | grep -q "pool 'no_such_pool': no such pool" || fail "pool message: $msg"
