# The capacity search (issue 33): rados 4K writes against a limit the
# cluster enforces whatever this machine's speed: every OSD delays each
# client message by a uniform 0 to 2 x D (--osd-latency D = 50 ms), and
# the client keeps at most M = 4 ops in flight, so the most it can carry
# is about M / D = 80 ops/s (less the OSDs' own time). D is large and M
# small so that the OSDs' own time on a loaded 2-core host stays a small
# share, and each OSD connection's delay queue (in order) holds few ops.
# - Bad input (a bad SLO, zero precision, --rate, a workload with no
#   stream of ops) exits 2 within 2 s against a monitor nobody answers.
# - At 0.5 x the limit: held, response p99 about the service p99 (no
#   queueing to speak of). At 2 x: not held, response p99 >= 5 x service
#   p99 (the wait the service time hides), and explain names the limit
#   (the injected latency and M / D).
# - The search with --slo p99<=500ms finds a capacity within 0.7 to 1.1 of
#   M / D; explain names the simulated latency; the views (text, JSON, CSV,
#   SVG) agree; report re-renders the saved search, and compare gates on
#   the capacity (a halved one is REGRESSED, exit 1).
# - Ctrl-C during a search: exit 130 within 15 s, the partial curve saved
#   and marked, nothing left (run.sh checks the pool).
# About 45 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dead_conf
refused_fast "--slo: required" capacity rados write -p x
refused_fast "expected a percentile p50, p90, p99 or p99.9" capacity rados write -p x --slo 'p98<=10ms'
refused_fast "expected a duration above 0 with its unit" capacity rados write -p x --slo 'p99<=10'
refused_fast "p99 given twice" capacity rados write -p x --slo 'p99<=10ms,p99<=1ms'
refused_fast "out of range" capacity rados write -p x --slo 'p99<=10ms' --precision 0
refused_fast "out of range" capacity rados write -p x --slo 'p99<=10ms' --step-time 0
refused_fast "--rate: not with capacity" capacity rados write -p x --slo 'p99<=10ms' --rate 5
refused_fast "not a workload with a stream of ops" capacity fs meta --slo 'p99<=10ms'
refused_fast "--image: not an option of this command" capacity rados write -p x --slo 'p99<=1ms' --image y
refused_fast "expected WORKLOAD" capacity rados --slo 'p99<=1ms'

D=50ms M=4 LIMIT=80
run() { "$CCBENCH" rados write -p "$POOL" -b 4K --max-in-flight $M --osd-latency $D -d 2s -q -f json "$@"; }
# 5 s at half the limit: 200 arrivals, so that the rule's 1 % allows two
# late ones (2 s gave 80, where one op held up by a loaded host broke it).
ol_counts() { jget "$1" '"%d arrivals, %d late, %d left, %d dropped, achieved %.1f, issuer lag p99 %.1f ms" % (tuple(d["open_loop"][k] for k in ("arrivals_total", "late", "left_at_end", "dropped", "achieved_ops_s")) + (d["open_loop"]["issuer_lag_us"]["p99"] / 1e3,))'; }
run --rate $((LIMIT / 2)) -d 5s >half.json
# Once more if not held: beside other lanes on 2 CPUs the client's own
# thread can be kept from issuing for more than a period (CI of
# 2026-12-04: 5 of 200 late). Twice not held is a failure.
if [ "$(jget half.json 'd["open_loop"]["verdict"]')" != held ]; then
	echo "note: 0.5 x not held once ($(ol_counts half.json)), once more"
	run --rate $((LIMIT / 2)) -d 5s >half.json
fi
run --rate $((LIMIT * 2)) >twice.json
echo "note: 0.5 x: $(ol_counts half.json)"
jcheck half.json 'd["open_loop"]["verdict"] == "held"' \
	'd["latency_injection"]["osd_us"] == 50000' \
	'd["open_loop"]["response_time_us"]["p99"] <= 1.5 * d["open_loop"]["service_time_us"]["p99"]'
jcheck twice.json 'd["open_loop"]["verdict"] == "not held"' \
	'd["open_loop"]["response_time_us"]["p99"] >= 5 * d["open_loop"]["service_time_us"]["p99"]' \
	'any(e["kind"] == "open-loop" and "rate not held" in e["text"] for e in d["explain"])' \
	'any(e["kind"] == "open-loop-limit" and "simulated latency set the rate" in e["text"] and "--osd-latency" in e["text"] and "= 80 ops/s" in e["text"] for e in d["explain"])'
"$CCBENCH" explain twice.json | gq "simulated latency set the rate" || fail "explain twice.json: $("$CCBENCH" explain twice.json)"
echo "note: 0.5 x: response p99 $(jget half.json 'round(d["open_loop"]["response_time_us"]["p99"])') us, service p99 $(jget half.json 'round(d["open_loop"]["service_time_us"]["p99"])') us; 2 x: $(jget twice.json 'round(d["open_loop"]["response_time_us"]["p99"])') us against $(jget twice.json 'round(d["open_loop"]["service_time_us"]["p99"])') us"

t0=$SECONDS
search() {
	"$CCBENCH" capacity rados write -p "$POOL" -b 4K --max-in-flight $M --osd-latency $D \
		--slo 'p99<=500ms' --step-time 2s --precision 10% --json cap.json --csv cap.csv \
		--svg cap.svg >cap.txt 2>cap.err || fail "capacity: exit $?: $(tail -5 cap.err)"
}
show() { jget cap.json '"capacity %s; " % d["capacity_ops_s"] + "; ".join("%s %s: %s" % (s["phase"], s["target_ops_s"], s["verdict"]) for s in d["steps"])'; }
in_range() { [ "$(jget cap.json "0.7 * $LIMIT <= (d['capacity_ops_s'] or 0) <= 1.1 * $LIMIT")" = True ]; }
search
once_more_if_distrusted cap.json in_range search
in_range || fail "capacity not within 0.7 to 1.1 of $LIMIT: $(show); distrust: $(distrusts cap.json)"
jcheck cap.json 'd["kind"] == "capacity" and d["status"] == "ok"' \
	'd["slo"]["terms"][0]["key"] == "p99" and d["slo"]["terms"][0]["limit_us"] == 500000' \
	'd["probe"]["ops_s"] > 0 and d["search"]["ended"] == "precision reached"' \
	'[h["share_pct"] for h in d["headroom"]] == [50, 70]' \
	'all(s["verdict"] in ("meets SLO", "over SLO", "not carried") for s in d["steps"])' \
	'any(s["target_ops_s"] == d["capacity_ops_s"] and s["verdict"] == "meets SLO" for s in d["steps"])' \
	'any(s["verdict"] != "meets SLO" and s["target_ops_s"] > d["capacity_ops_s"] for s in d["steps"])' \
	'all(s["response_time_us"]["p99"] >= s["service_time_us"]["p99"] * 0.999 for s in d["steps"] if s["completed"])' \
	'any(e["kind"] == "capacity-limit" and "simulated latency set the capacity" in e["text"] for e in d["explain"])'
grep -q "^capacity  *[0-9.]* ops/s for rados write at p99<=500ms" cap.txt || fail "text: $(head -3 cap.txt)"
[ "$(($(wc -l <cap.csv) - 1))" = "$(jget cap.json 'len(d["steps"])')" ] || fail "csv rows: $(cat cap.csv)"
grep -q "SLO p99 &lt;= 500 ms" cap.svg && grep -q "latency (ms, log)" cap.svg || fail "svg: no SLO line or log axis"
echo "note: capacity $(jget cap.json 'round(d["capacity_ops_s"], 1)') ops/s of M/D = $LIMIT, $(jget cap.json 'len(d["steps"])') steps in $((SECONDS - t0)) s; $(jget cap.json '[e["text"] for e in d["explain"] if e["kind"] == "capacity-limit"][-1]')"

# The saved search: re-rendered, explained, and gated on.
"$CCBENCH" report cap.json --csv again.csv >again.txt
cmp -s cap.csv again.csv || fail "report --csv differs from the run's"
grep -q "^capacity " again.txt || fail "report: $(head -3 again.txt)"
"$CCBENCH" explain cap.json | gq "simulated latency set the capacity" || fail "explain cap.json"
expect_gate 0 cap.json cap.json >cmp.txt
python3 -c '
import json, sys
d = json.load(open("cap.json"))
d["capacity_ops_s"] /= 2
json.dump(d, open("half-cap.json", "w"))'
expect_gate 1 cap.json half-cap.json >cmp.txt
grep -q "REGRESSED" cmp.txt && grep -q "(capacity)" cmp.txt || fail "compare: $(cat cmp.txt)"
# A search marked distrust (as a loaded host earns one) is refused as a
# gate, exit 2 naming it, and gated with --allow-distrust (expect_gate).
# The planted line goes first, as the base: compare names a document's
# first distrust, and a loaded host may have earned the search one of its
# own (CI of stop 40: "the client's CPU was busy").
python3 -c '
import json
d = json.load(open("cap.json"))
d["explain"].insert(0, {"kind": "capacity-limit", "severity": "distrust", "text": "planted by t_capacity"})
json.dump(d, open("dist-cap.json", "w"))'
expect_rc 2 "$CCBENCH" compare dist-cap.json cap.json 2>dist.err
grep -q "dist-cap.json: point .*distrust: planted by t_capacity" dist.err || fail "compare of a distrusted search: $(cat dist.err)"
expect_gate 0 dist-cap.json cap.json >cmp.txt

# Both loops on one chart: the shipped closed-loop curve, shrunk (1 client,
# 1 and 8 in flight, 2 s each, the same delay on the OSDs), drawn with the
# saved search (report --closed-loop). With 50 ms per op, 8 in flight
# carry about 8 times what 1 does: 4 to 12 times. 1 in flight does about
# 40 ops in 2 s, a count that varies by about 9 % (in 1 s, 20 ops and
# 13 %: the ratio passed the old bound of 10 once, 2026-12-04).
"$CCBENCH" sweep closed-loop-curve -p "$POOL" --osd-latency $D --param clients=1 \
	--param 'queue-depth=[1,8]' --param duration=2s -q --json closed.json >/dev/null 2>closed.err ||
	fail "closed-loop sweep: exit $?: $(tail -3 closed.err)"
"$CCBENCH" report cap.json --closed-loop closed.json --svg both.svg -f json >both.json ||
	fail "report --closed-loop: exit $?"
grep -q "closed-loop sweep p99 (clients x depth)" both.svg || fail "both.svg: no closed-loop sweep series"
grep -q "SLO p99 &lt;= 500 ms" both.svg || fail "both.svg: no SLO line"
jcheck both.json 'd["kind"] == "capacity" and d["closed_loop_sweep"]["config"] == "closed-loop-curve"' \
	'[p["in_flight"] for p in d["closed_loop_sweep"]["points"]] == [1, 8]'
[ "$(jget both.json '4 < d["closed_loop_sweep"]["points"][1]["ops_s"] / d["closed_loop_sweep"]["points"][0]["ops_s"] < 12')" = True ] ||
	fail "closed loop: 8 in flight against 1 not 4 to 12 times: $(jget both.json 'd["closed_loop_sweep"]["points"]'); $(jget closed.json '[(p["matrix"], [(r["status"], r.get("ops"), r.get("duration_s"), r.get("iops")) for r in p["runs"]]) for p in d["points"]]')"
"$CCBENCH" report cap.json --closed-loop closed.json | gq "^  8 in flight " || fail "text: no closed-loop sweep rows"
expect_rc 2 "$CCBENCH" report closed.json --closed-loop closed.json 2>bad.err
grep -q "goes with a saved capacity search" bad.err || fail "--closed-loop on a sweep: $(cat bad.err)"
expect_rc 2 "$CCBENCH" report cap.json --closed-loop cap.json 2>bad.err
grep -q "not a sweep" bad.err || fail "--closed-loop of a search: $(cat bad.err)"
echo "note: closed loop beside the search: $(jget both.json '", ".join("%d in flight %.1f ops/s p99 %.0f ms" % (p["in_flight"], p["ops_s"], p["latency_us"]["p99"] / 1e3) for p in d["closed_loop_sweep"]["points"])')"

# Ctrl-C mid-search (client-side delay: nothing to put back on the OSDs).
"$CCBENCH" capacity rados write -p "$POOL" -b 4K --max-in-flight $M --slo 'p99<=250ms' \
	--step-time 2s -o ms_inject_delay_type=osd -o ms_inject_delay_max=0.04 \
	-o ms_inject_delay_probability=1 --json int.json -q -f json >int.out 2>int.err &
pid=$!
# Into the first steps: the closed-loop probe runs (1 and 4 in flight) take
# about 1 s each, a step 2 s; on a loaded host the probe may still be
# running, and then no step has begun (the document says so, and is still
# marked interrupted and partial).
sleep 8
signal_wait "$pid" INT 130 15 int.err
jcheck int.json 'd["status"] == "interrupted" and "partial" in d' \
	'all(s["verdict"] in ("meets SLO", "over SLO", "not carried", "interrupted") for s in d["steps"])' \
	'd["capacity_ops_s"] is None or d["capacity_ops_s"] > 0'
python3 -c 'import json; json.load(open("int.out"))' || fail "stdout of the interrupted search is not JSON"
echo "note: interrupted after $(jget int.json 'len(d["steps"])') steps, the last $(jget int.json '(d["steps"] or [{"verdict": "none"}])[-1]["verdict"]')"
[ -z "$(ns_objects)" ] || fail "left: $(ns_objects | head -3)"
no_osd_delay || fail "an OSD still delays messages"
