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
# check PATTERN ARGS...: exit 2 within 2 s, one message matching PATTERN
dead() { "$CCBENCH" "$@" -c dead.conf --connect-timeout 20s; }
check() { expect_refused --within 2 --one "$1" dead "${@:2}"; }
check "queue-depth '0'" rados write -p x -t 0
check "queue-depth '1025'" rados write -p x -t 1025
check "op-size '0'" rados write -p x -b 0
check "op-size '4Q'" rados write -p x -b 4Q
check "larger than --object-size" rados write -p x -b 8M --object-size 4M
check "not a multiple" rados write -p x -b 3M --object-size 8M
check "duration '10parsecs'" rados write -p x -d 10parsecs
check "total '99999999999999999999'" rados write -p x --total 99999999999999999999
check "unknown option" rados write -p x --frobnicate
check "takes no value" rados write -p x --no-cleanup=1
check "takes no value" cleanup -p x --run-name r --force=yes
check "expected one of on|off" rados write -p x --explain=bogus
check "malloc-trim '61s'" rados seq -p x --malloc-trim 61s
check "malloc-trim 'often'" rbd read --malloc-trim often
check "pool: required" rados write
check "rate '0'" rados write -p x --rate 0
check "rate '-5'" rados write -p x --rate -5
check "rate 'nan'" rados write -p x --rate nan
check "max-backlog '0'" rados write -p x --rate 100 --max-backlog 0
check "expected one of uniform|poisson" rados write -p x --rate 100 --arrivals burst
check "max-in-flight: only with --rate" rados write -p x --max-in-flight 4
check "rate: not for fs meta" fs meta --rate 100
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
expect_refused --one "pool 'no_such_pool': no such pool" "$CCBENCH" rados write -p no_such_pool -d 1s -q
