# Bad input: one message naming the option, exit 2, and nothing sent to the
# cluster. The conf points at a mon that does not exist, so any attempt to
# connect would take --connect-timeout; bad input must be refused at once.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dead_conf
refused_fast "queue-depth '0'" rados write -p x -t 0
refused_fast "queue-depth '1025'" rados write -p x -t 1025
refused_fast "op-size '0'" rados write -p x -b 0
refused_fast "op-size '4Q'" rados write -p x -b 4Q
refused_fast "larger than --object-size" rados write -p x -b 8M --object-size 4M
refused_fast "not a multiple" rados write -p x -b 3M --object-size 8M
refused_fast "duration '10parsecs'" rados write -p x -d 10parsecs
refused_fast "total '99999999999999999999'" rados write -p x --total 99999999999999999999
refused_fast "unknown option" rados write -p x --frobnicate
refused_fast "takes no value" rados write -p x --no-cleanup=1
refused_fast "takes no value" cleanup -p x --run-name r --force=yes
refused_fast "expected one of on|off" rados write -p x --explain=bogus
refused_fast "malloc-trim '61s'" rados seq -p x --malloc-trim 61s
refused_fast "malloc-trim 'often'" rbd read --malloc-trim often
refused_fast "pool: required" rados write
refused_fast "rate '0'" rados write -p x --rate 0
refused_fast "rate '-5'" rados write -p x --rate -5
refused_fast "rate 'nan'" rados write -p x --rate nan
refused_fast "max-backlog '0'" rados write -p x --rate 100 --max-backlog 0
refused_fast "expected one of uniform|poisson" rados write -p x --rate 100 --arrivals burst
refused_fast "max-in-flight: only with --rate" rados write -p x --max-in-flight 4
refused_fast "busy-poll: only with --rate" rados write -p x --busy-poll
refused_fast "rate: not for fs meta" fs meta --rate 100
refused_fast "unknown command" frobnicate
refused_fast "expected write, seq or rand" rados bogus
refused_fast "no such librados/librbd option" rados write -p x -o no_such_option=1
refused_fast "invalid value" rados write -p x -o rados_osd_op_timeout=banana
refused_fast "expected KEY=VALUE" rados write -p x -o novalue
refused_fast "run-name 'a.b'" rados write -p x --run-name a.b
refused_fast "give --run-name" cleanup -p x
timed "$CCBENCH" rados write -p x -c /nonexistent.conf
[ "$RC" = 2 ] || fail "unreadable conf: $RC"
timed "$CCBENCH" rados write -p x -c dead.conf -k /nonexistent.keyring
[ "$RC" = 2 ] || fail "unreadable keyring: $RC"

# A missing pool needs the cluster to tell, but is still bad input.
expect_refused --one "pool 'no_such_pool': no such pool" "$CCBENCH" rados write -p no_such_pool -d 1s -q
