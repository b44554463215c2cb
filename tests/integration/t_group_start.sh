# Three members on one host start together (skew under 50 ms); the report
# shows all three and an aggregate equal to the sum over the common window;
# the group's latency is that of all members' ops (merged histograms);
# --svg is well-formed XML; csv has a row per member plus the aggregate;
# group ls lists the group, group rm removes every object of it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

G=gstart$$
# The group's objects go however the test ends (a failed check exits at once).
on_exit sh -c '"$0" group rm "$1" --group-pool "$2" >/dev/null 2>&1' "$CCBENCH" "$G" "$POOL"
group_members 3 m "$CCBENCH" rados write -p "$POOL" -d 3s -b 64K -t 4 --group "$G" --members 3 \
	--group-timeout 30s -q -f json
rc=$RC
for i in 1 2 3; do
	cat m$i.err >&2
	jget m$i.json 'd["status"]' | gq -x ok || fail "member $i status"
	jget m$i.json 'd["group"]["name"]' | gq -x "$G" || fail "member $i: no group object"
done
[ "$rc" = 0 ] || fail "a member exited $rc"

"$CCBENCH" group report "$G" --group-pool "$POOL" -f json --svg g.svg --csv g.csv >r.json
python3 - r.json m1.json m2.json m3.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
mine = [json.load(open(f)) for f in sys.argv[2:]]
assert r["status"] == "complete", r["status"]
assert r["members_expected"] == 3
assert len(r["members"]) == 3 and all(m["state"] == "done" for m in r["members"])
assert r["missing"] == []
assert r["start_skew_ms"] < 50, r["start_skew_ms"]
# The members the processes printed are the ones reported.
assert sorted(m["group"]["member"] for m in mine) == sorted(m["member"] for m in r["members"])
# Every member ran over the whole common window.
w = r["window"]
for m in r["members"]:
    s = m["start_realtime_us"]
    assert s <= w["start_realtime_us"] and s + m["seconds"] * 1e6 >= w["end_realtime_us"] - 1
assert 2.5 < w["seconds"] <= 3.2, w
agg = r["aggregate"]
assert agg["members"] == 3
total = sum(m["window_bytes"] for m in r["members"])
assert abs(agg["bytes"] - total) < 1, (agg["bytes"], total)
assert abs(agg["bandwidth_mib_s"] - sum(m["window_bandwidth_mib_s"] for m in r["members"])) < 1e-6
assert abs(agg["bandwidth_mib_s"] - agg["bytes"] / 1048576 / w["seconds"]) < 1e-6
assert abs(sum(s["bytes"] for s in agg["series"]) - agg["bytes"]) < 1
# The window holds nearly all each member moved (skew is milliseconds).
assert total > 0.9 * sum(m["bytes"] for m in r["members"])
assert 0 < agg["jain_index"] <= 1
for m in r["members"]:
    for k in ["p50", "p99", "p99_9"]:
        assert m["latency_us"][k] > 0
# The group's latency is the union of the members' ops (their stored
# histograms merged): every op counted once, its max the members' max, and
# each percentile between the members' (a quantile of a union lies within
# its parts'), never their average unless it happens to be.
lat = agg["latency_us"]
assert agg["latency_members"] == 3, agg["latency_members"]
assert lat["n"] == sum(m["latency_us"]["n"] for m in r["members"]), lat["n"]
assert lat["max"] == max(m["latency_us"]["max"] for m in r["members"]), lat
for k in ["p50", "p90", "p99", "p99_9"]:
    lo = min(m["latency_us"][k] for m in r["members"])
    hi = max(m["latency_us"][k] for m in r["members"])
    assert lo <= lat[k] <= hi, (k, lo, lat[k], hi)
for m in mine:
    h = m["latency_hist"]
    assert h["count"] == m["latency_us"]["n"] and len(h["buckets"]) % 2 == 0
print("note: latency_hist record %d bytes (%d buckets) for %d ops" % (
    len(json.dumps(mine[0]["latency_hist"], separators=(",", ":"))),
    len(mine[0]["latency_hist"]["buckets"]) // 2, mine[0]["latency_hist"]["count"]))
PY
python3 -c 'import sys, xml.etree.ElementTree as E; t=E.parse(sys.argv[1]); assert t.getroot().tag.endswith("svg"); assert len(t.getroot().findall(".//{http://www.w3.org/2000/svg}polyline")) >= 4' g.svg ||
	fail "svg not well-formed or without a line per member and the aggregate"
[ "$(wc -l <g.csv)" = 5 ] || fail "csv: header, 3 members, aggregate"
"$CCBENCH" group report "$G" --group-pool "$POOL" >r.txt
grep -q "^aggregate" r.txt || fail "text report: no aggregate line"
grep -q "Jain" r.txt || fail "text report: no fairness index"
"$CCBENCH" group ls --group-pool "$POOL" | gq "^$G .*complete" || fail "group ls"

ns_objects ccbench-groups | gq "^$G" || fail "no group objects"
expect_rc 0 "$CCBENCH" group rm "$G" --group-pool "$POOL"
ns_objects ccbench-groups | gq "^$G" && fail "group rm left objects" || true
expect_rc 2 "$CCBENCH" group report "$G" --group-pool "$POOL"
expect_rc 2 "$CCBENCH" group rm "$G" --group-pool "$POOL"
# The runs' own objects were removed as usual.
[ -z "$(ns_objects)" ] || fail "run objects left: $(ns_objects | head -3)"
