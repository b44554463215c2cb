# write --no-cleanup, then seq and rand read it back with header checks, then
# cleanup removes every object of the run and nothing else.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rados -p "$POOL" -N ccbench put bystander /etc/hostname
# Bounded by time and by bytes (whichever first), so a fast machine does not
# write GiBs here.
"$CCBENCH" rados write -p "$POOL" -d 3s --total 512M -t 8 -b 1M --run-name wsr --no-cleanup -q -f json >w.json
[ "$(jget w.json 'd["status"]')" = ok ] || fail "write status"
n=$(jget w.json 'd["layout"]["objects"]')
[ "$n" -gt 0 ] || fail "no objects written"
[ "$(jget w.json 'd["ops"]')" = "$n" ] || fail "ops != objects"
[ "$(ns_objects | grep -c '^wsr\.')" = $((n + 1)) ] || fail "expected $n objects + meta"

"$CCBENCH" rados seq -p "$POOL" --run-name wsr -t 4 -q -f json >s.json
[ "$(jget s.json 'd["status"]')" = ok ] || fail "seq status"
[ "$(jget s.json 'd["ops"]')" = "$n" ] || fail "seq must read each object once"
[ "$(jget s.json 'd["bytes"]')" = $((n * 1048576)) ] || fail "seq bytes"
[ "$(jget s.json 'd["errors"]')" = 0 ] || fail "seq errors"
[ "$(jget s.json '"malloc_trims" in d')" = False ] || fail "malloc_trims without --malloc-trim"

# --malloc-trim: 1 s of random reads with the allocator trimmed every
# 10 ms (the run loop looks every 50 ms: about 20 trims); the result says
# how often it trimmed. No RSS figure is asserted: it depends on the
# machine's speed.
"$CCBENCH" rados rand -p "$POOL" --run-name wsr -t 4 -d 1s --malloc-trim 10ms -q -f json >st.json
[ "$(jget st.json 'd["status"]')" = ok ] || fail "trimmed rand status"
[ "$(jget st.json 'd["parameters"]["malloc-trim"]')" = 0.01 ] || fail "malloc-trim not recorded"
[ "$(jget st.json 'd["malloc_trims"] >= 5')" = True ] ||
	fail "$(jget st.json 'd["malloc_trims"]') trims in $(jget st.json 'd["seconds"]') s"

"$CCBENCH" rados rand -p "$POOL" --run-name wsr -d 2s -q -f json >r.json
[ "$(jget r.json 'd["status"]')" = ok ] || fail "rand status"
[ "$(jget r.json 'd["ops"] > 0')" = True ] || fail "rand read nothing"
[ "$(jget r.json 'd["latency_us"]["p99"] >= d["latency_us"]["p50"] > 0')" = True ] || fail "latency"

"$CCBENCH" cleanup -p "$POOL" --run-name wsr | gq "removed $n objects" || fail "cleanup count"
[ "$(ns_objects)" = bystander ] || fail "cleanup left or took: $(ns_objects | tr '\n' ' ')"
rados -p "$POOL" -N ccbench rm bystander

# --total first: a long --duration does not matter once the bytes are written.
timed "$CCBENCH" rados write -p "$POOL" -d 600s --total 32M -t 4 -b 1M -q -f json >t.json
[ "$RC" = 0 ] || fail "--total with --duration: exit $RC"
[ "$(jget t.json 'd["bytes"]')" = $((32 * 1048576)) ] || fail "--total 32M wrote $(jget t.json 'd["bytes"]')"
[ "$(jget t.json 'd["status"]')" = ok ] || fail "total status"
