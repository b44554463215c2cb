# Every result explains itself (issue 13): a QD 1 64K read under simulated
# latency says latency-bound with the bound its own figures give, and
# simulated; a readahead under writearound says inactive; `ccbench explain`
# re-derives the same kinds from the saved JSON; --explain=off leaves them
# out; compare refuses a point marked distrust. No speed is asserted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kinds() { jget "$1" '";".join(e["kind"] + ":" + e["severity"] for e in d["explain"])'; }

"$CCBENCH" rbd read --io-size 64K -t 1 --sim-osd-latency 2ms --size 64M -q -f json >lat.json
echo "latency run: $(kinds lat.json)"
kinds lat.json | gq "simulated:info" || fail "no simulated entry"
# The bound from the result's own figures: 1 x 64K / mean latency. A loaded
# machine may stall a second (stall, variance) but the client keeps one op
# in flight, so the run is at its bound.
python3 - lat.json <<'PY' || fail "littles-law entry wrong"
import json, sys
d = json.load(open(sys.argv[1]))
e = [x for x in d["explain"] if x["kind"] == "littles-law"]
assert e and e[0]["severity"] == "info", e
want = d["clients_n"] * d["queue_depth"] * 65536 / (d["latency_us"]["mean"] / 1e6) / 1048576
got = e[0]["figures"]["bound_mib_s"]
assert abs(got - want) <= 0.10 * want, (got, want)
assert "latency-bound" in e[0]["text"], e[0]["text"]
print("bound", got, "computed", want, "measured", d["bandwidth_mib_s"])
PY
"$CCBENCH" rbd read --io-size 64K -t 1 --sim-osd-latency 2ms --size 64M -q >lat.txt
grep -q "^why  *latency-bound: 1 in flight" lat.txt || fail "no why line in text output"

"$CCBENCH" rbd read --io-size 64K -t 1 --size 32M --readahead 1M --cache-policy writearound \
	-q -f json >wa.json
echo "writearound run: $(kinds wa.json)"
jget wa.json '[e["text"] for e in d["explain"] if e["kind"] == "readahead"][0]' |
	grep -q "readahead inactive" || fail "no readahead inactive entry"

# librbd's cache: a 16M image read at random for 64M through a 64M cache
# comes mostly from it (the cluster delivers the image once); a sequential
# read of a 64M image through the default 32M cache does not. The admin socket
# directory is gone after each run.
asok_tmp=$(mktemp -d /tmp/ccb-asok.XXXXXX)
TMPDIR=$asok_tmp "$CCBENCH" rbd randread --io-size 64K -t 1 --size 16M --total 64M \
	--cache-size 64M --cache-policy writeback -q -f json >rc.json
echo "cached run: $(kinds rc.json) $(jget rc.json 'd["layout"]["librbd"]["cache"]')"
jget rc.json '[e["severity"] + ": " + e["text"] for e in d["explain"] if e["kind"] == "cache"][0]' |
	grep -qE "^(warn|distrust): [0-9]+ % of this read came from a cache: the cluster delivered .* for 64M served \(librbd's cache\)$" ||
	fail "no librbd cache entry"
TMPDIR=$asok_tmp "$CCBENCH" rbd read --io-size 64K -t 1 --size 64M --readahead 4M \
	--cache-policy writeback -q -f json >rs.json
echo "sequential run: $(kinds rs.json) $(jget rs.json 'd["layout"]["librbd"]["cache"]')"
[ "$(jget rs.json '[e["kind"] for e in d["explain"] if e["kind"] == "cache"]')" = "[]" ] ||
	fail "a cache entry for a sequential read"
[ "$(jget rs.json 'd["layout"]["librbd"]["cache"]["cluster_bytes"] >= d["bytes"]')" = True ] ||
	fail "the cluster delivered less than a sequential read served"
TMPDIR=$asok_tmp "$CCBENCH" rbd read --io-size 64K -t 1 --size 16M --no-cache -q -f json >rn.json
[ "$(jget rn.json '"cache" in d["layout"]["librbd"]')" = False ] || fail "cache figures without rbd_cache"
# writearound (librbd's default) has no object cacher: no counters, and no
# warning that they could not be read.
TMPDIR=$asok_tmp "$CCBENCH" rbd read --io-size 64K -t 1 --size 16M --cache-policy writearound -q \
	-f json >ra.json
[ "$(jget ra.json '"cache" in d["layout"]["librbd"]')" = False ] || fail "cache figures under writearound"
[ "$(jget ra.json '[w for w in d["warnings"] if "cache counters" in w]')" = "[]" ] ||
	fail "writearound: $(jget ra.json 'd["warnings"]')"
rmdir "$asok_tmp" || fail "admin socket directory left: $(ls -R "$asok_tmp")"

# The saved result re-derives the same kinds.
"$CCBENCH" explain lat.json >ex.txt
cat ex.txt
"$CCBENCH" explain -f json lat.json >ex.json
[ "$(python3 -c 'import json,sys; print(";".join(e["kind"] for e in json.load(open(sys.argv[1]))))' ex.json)" = \
	"$(jget lat.json '";".join(e["kind"] for e in d["explain"])')" ] || fail "explain re-derived other kinds"
grep -q "latency-bound" ex.txt || fail "explain: no latency-bound line"
grep -q "simulated" ex.txt || fail "explain: no simulated line"

# A sweep: each point's runs carry it; its text has the footnote, its CSV
# the column, and explain prints it per point.
cat >sw.json <<'CFG'
{"name": "explain", "command": "rbd read",
 "params": {"size": "16M", "io-size": "64K", "cache-policy": "writearound"},
 "matrix": {"readahead": ["1M", "0"]}, "repeat": 1}
CFG
"$CCBENCH" sweep sw.json -q --json swr.json --csv swr.csv >swr.txt
grep -q '^  \[1\] {"readahead":"1M"}: warning: readahead inactive' swr.txt || fail "no sweep footnote"
! grep -q '^  \[2\]' swr.txt || fail "a footnote for the point without readahead"
head -1 swr.csv | gq ",explain$" || fail "no explain column in the sweep CSV"
grep -q '^1,.*readahead:warn' swr.csv || fail "sweep CSV: no readahead:warn for point 1"
"$CCBENCH" explain swr.json >swx.txt
cat swx.txt
grep -q '^rbd read {"readahead":"1M"}$' swx.txt || fail "explain: no point line"
grep -q '^why .*readahead inactive' swx.txt || fail "explain: no readahead line for the sweep"

# A sweep with repeats says whether its knee stands out from its
# neighbours given the repeats' spread (and how many repeats would tell).
cat >kn.json <<CFG
{"name": "knee", "command": "rados write",
 "params": {"pool": "$POOL", "duration": "1s", "op-size": "64K"},
 "matrix": {"queue-depth": [1, 8]}, "repeat": 2}
CFG
"$CCBENCH" sweep kn.json -q --json knr.json >knr.txt
sed -n '/^knee confidence/,/^$/p' knr.txt
grep -qE '^knee confidence \(MiB/s\): queue-depth (1|8), [0-9.]+ ± [0-9.]+ \(2 runs\)$' knr.txt ||
	fail "no knee confidence line"
grep -qE '^  vs queue-depth (1|8): .*standard error [0-9.]+: (distinguishable|not distinguishable(; about [0-9]+ repeats would tell them apart| \(the same figure\)).*)$' knr.txt ||
	fail "no knee neighbour line"
"$CCBENCH" report knr.json | gq "^knee confidence" || fail "report: no knee confidence"

# A group: its report shows each member's warnings.
G=explain-$$
# Removed however the checks below end (after the rm below: "no such group").
drop_group() { "$CCBENCH" group rm "$G" --group-pool "$POOL" >/dev/null 2>&1; }
on_exit drop_group
"$CCBENCH" rbd read --io-size 64K -t 1 --size 16M --readahead 1M --cache-policy writearound \
	--group "$G" --members 1 --group-pool "$POOL" --group-timeout 30s -q >/dev/null
"$CCBENCH" group report "$G" --group-pool "$POOL" >g.txt
grep -q "^why .*: warning: readahead inactive" g.txt || fail "group report: no member why line"
# Its saved JSON re-derives each member's list and the aggregate's, even
# with the lists taken out (a report saved before they existed).
"$CCBENCH" group report "$G" --group-pool "$POOL" -f json >g.json
python3 - g.json g0.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.pop("explain", None)
for m in d["members"]:
    m.get("result", {}).pop("explain", None)
json.dump(d, open(sys.argv[2], "w"))
PY
"$CCBENCH" explain g0.json >gx.txt
cat gx.txt
grep -q "^member " gx.txt || fail "explain group: no member line"
grep -q "^why  *warning: readahead inactive" gx.txt || fail "explain group: no member readahead line"
grep -q "^aggregate$" gx.txt || fail "explain group: no aggregate line"
sed -n '/^aggregate$/,$p' gx.txt | gq "^why  *warning: 1 of 1 members warned (readahead)" ||
	fail "explain group: no aggregate line for the warned member"
"$CCBENCH" explain -f json g.json >gx.json
[ "$(jget gx.json '[p["point"] for p in d][-1]')" = aggregate ] || fail "explain -f json group: no aggregate"
[ "$(jget gx.json '[e["kind"] for e in d[-1]["explain"]]')" = \
	"$(jget g.json '[e["kind"] for e in d["explain"]]')" ] || fail "explain group: other aggregate kinds"
expect_rc 0 "$CCBENCH" group rm "$G" --group-pool "$POOL"

# CSV: one explain column, last.
"$CCBENCH" report -f csv lat.json >lat.csv
head -1 lat.csv | gq ",explain$" || fail "no explain column"
tail -1 lat.csv | gq "simulated:info" || fail "explain column empty"

"$CCBENCH" rbd read --io-size 64K -t 1 --size 16M --explain=off -q -f json >off.json
[ "$(jget off.json '"explain" in d or "client_cpu" in d')" = False ] || fail "--explain=off kept it"
"$CCBENCH" rbd read --io-size 64K -t 1 --size 16M --explain=off -q >off.txt
! grep -q "^why" off.txt || fail "--explain=off printed why lines"
"$CCBENCH" report lat.json | gq "^why" || fail "report: no why lines"
! "$CCBENCH" report --explain=off lat.json | gq "^why" || fail "report --explain=off printed why lines"

# compare refuses to gate on a distrusted point, unless told to.
python3 - lat.json bad.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["explain"].append({"kind": "cache", "severity": "distrust",
                     "text": "93 % of this read came from a cache", "figures": {}})
json.dump(d, open(sys.argv[2], "w"))
PY
expect_rc 2 "$CCBENCH" compare lat.json bad.json 2>cmp.err
cat cmp.err
grep -q "point rbd read: distrust: 93 % of this read came from a cache" cmp.err ||
	fail "compare did not name the point and the reason"
expect_rc 0 "$CCBENCH" compare --tolerance 1000 --allow-distrust lat.json bad.json
expect_rc 0 "$CCBENCH" compare --tolerance 1000 lat.json lat.json
[ -z "$(new_images)" ] || fail "images left: $(new_images)"
