# Sweeps and the side their latency is on (issue 24), on this host (krbd
# through fuse-loop; the real driver's sweep is t_krbd_vm_readahead.sh):
# - librbd under client-side --sim-osd-latency beside krbd under none (the
#   first year's seed-002 chart): the table and `ccbench explain` say
#   NOT COMPARABLE, and that fuse-loop cannot show readahead; the krbd
#   series gets no knee and no recommendation;
# - --osd-latency for the whole sweep (in params): one probe, every run
#   says side "osd", no "not comparable", the OSDs put back after;
# - a runner for the krbd points (a script that logs its arguments, then
#   runs this host's ccbench): their results carry "runner", the sweep-wide
#   option is not passed on, the shared image is their --map;
# - a runner that prints no result: the run failed with the reason, exit 1;
# - SIGINT during a runner's point: the runner gets SIGTERM and ends, the
#   sweep ends 130, the OSDs are put back.
# About 2 minutes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

no_osd_delay || fail "the OSDs inject delays before the test"

grid='"matrix": {"readahead": ["128K", "1M"], "path": ["librbd", "krbd"]}'
base='"command": "rbd read", "params": {"size": "32M", "io-size": "64K", "duration": "2s", "pool": "'$POOL'"'

# ---- 1. latency on one side only ---------------------------------------------
cat >one.json <<EOF
{"name": "one-side", $base}, $grid,
 "path_params": {"librbd": {"sim-osd-latency": "2ms", "cache-policy": "writeback"}}}
EOF
"$CCBENCH" sweep one.json --json one.out.json >one.txt 2>one.err || fail "one-side sweep: exit $?: $(tail -5 one.err)"
grep -q "DISTRUST: not comparable: the paths ran under different injected latency" one.txt ||
	fail "table: no 'not comparable': $(head -8 one.txt)"
grep -q "krbd points: none injected" one.txt || fail "table: the krbd side not named: $(head -8 one.txt)"
grep -q "ran through fuse-loop.*cannot show readahead" one.txt || fail "table: no fuse-loop line: $(head -8 one.txt)"
grep -q "recommendation (path=krbd)" one.txt && fail "a recommendation for the fuse-loop series: $(cat one.txt)"
"$CCBENCH" explain one.out.json -f json >one.ex.json
jcheck one.ex.json \
	'd[0]["point"] == "sweep"' \
	'any(c["kind"] == "latency-sides" and c["severity"] == "distrust" for c in d[0]["explain"])' \
	'any(c["kind"] == "fuse-loop" for c in d[0]["explain"])'
"$CCBENCH" explain one.out.json >one.ex.txt
head -3 one.ex.txt | gq "DISTRUST: not comparable" || fail "explain text: no sweep line first: $(head -3 one.ex.txt)"
# The chart labels the series.
"$CCBENCH" report one.out.json --svg one.svg >/dev/null
grep -q "fuse-loop: cannot show readahead" one.svg || fail "svg: the fuse-loop series not labelled"

# ---- 2. the same latency on the OSDs, a runner for krbd ----------------------
cat >runner.sh <<EOF
#!/bin/bash
# Logs its arguments, then runs them here: a stand-in for a host with the driver.
printf '%s\n' "\$*" >>"$PWD/runner.log"
exec "$CCBENCH" "\$@"
EOF
chmod +x runner.sh
cat >same.json <<EOF
{"name": "same-side", $base, "osd-latency": "10ms"}, $grid,
 "path_params": {"librbd": {"cache-policy": "writeback"}},
 "runners": {"krbd": "$PWD/runner.sh"}}
EOF
"$CCBENCH" sweep same.json --json same.out.json >same.txt 2>same.err || fail "same-side sweep: exit $?: $(tail -5 same.err)"
no_osd_delay || fail "the OSDs still delay after the sweep"
grep -q "latency: about 10ms injected on every OSD" same.txt || fail "table: no latency line: $(head -5 same.txt)"
grep -q "not comparable" same.txt && fail "same side, yet 'not comparable': $(head -8 same.txt)"
jcheck same.out.json \
	'd["latency"]["osd_us"] == 10000' \
	'len(d["latency"]["probes"]) == 1 and d["latency"]["probes"][0]["mean_us"] >= 4000' \
	'all(r["latency_injection"]["side"] == "osd" for p in d["points"] for r in p["runs"])' \
	'all(("runner" in r) == (r["path"] == "krbd") for p in d["points"] for r in p["runs"])' \
	'all(r["runner"]["exit"] == 0 for p in d["points"] for r in p["runs"] if r["path"] == "krbd")'
[ "$(grep -c '^krbd read ' runner.log)" = 2 ] || fail "runner: $(cat runner.log)"
grep -q -- "--osd-latency" runner.log && fail "the sweep-wide option reached the runner: $(cat runner.log)"
grep -q -- "--map $POOL/ccbench-" runner.log || fail "runner: not the shared image: $(cat runner.log)"
grep -q -- "--read-ahead-kb 1024 " runner.log || fail "runner: readahead not in KiB: $(cat runner.log)"
echo "note: probe $(jget same.out.json 'round(d["latency"]["probes"][0]["mean_us"] / 1000, 1)') ms mean for 10 ms on the OSDs"

# ---- 3. a runner with no result --------------------------------------------------
printf '#!/bin/sh\necho "not json"\nexit 0\n' >bad-runner.sh
chmod +x bad-runner.sh
rc=0
"$CCBENCH" sweep one.json --param path=krbd --param 'readahead=["1M"]' --runner "krbd=$PWD/bad-runner.sh" \
	--json bad.out.json >/dev/null 2>bad.err || rc=$?
[ $rc = 1 ] || fail "bad runner: exit $rc: $(cat bad.err)"
grep -q "stdout is not a JSON result" bad.err || fail "bad runner: no reason: $(cat bad.err)"
jcheck bad.out.json 'd["points"][0]["runs"][0]["status"] != "ok"'

# ---- 4. SIGINT during a runner's point ----------------------------------------
cat >slow-runner.sh <<EOF
#!/bin/bash
trap 'echo TERM >>"$PWD/slow.log"; exit 143' TERM
echo started >>"$PWD/slow.log"
sleep 300 &
wait
EOF
chmod +x slow-runner.sh
"$CCBENCH" sweep same.json --param path=krbd --runner "krbd=$PWD/slow-runner.sh" --json slow.out.json \
	>/dev/null 2>slow.err &
pid=$!
wait_grep slow.log started 120
kill -INT $pid
timed wait $pid
[ "$RC" = 130 ] || fail "SIGINT: exit $RC: $(tail -5 slow.err)"
[ "$ELAPSED" -le 60 ] || fail "SIGINT: $ELAPSED s to end"
grep -q TERM slow.log || fail "the runner did not get SIGTERM"
no_osd_delay || fail "SIGINT: the OSDs still delay"
