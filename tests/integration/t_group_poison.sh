# Group records in RADOS are not trusted: a member whose stored result or
# registration says start_realtime 1e17 (the unfixed report looped forever
# on it), seconds 1e12 (it allocated gigabytes), or holds wrong types, is
# named on stderr and in the report as malformed and left out; `group ls`
# and `group report` end (bounded by a generous timeout, not by speed) and a
# healthy group beside the poisoned ones still reports complete.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

NS=ccbench-groups
R() { rados -p "$POOL" -N "$NS" "$@"; }
pre=gp$$
groups=("${pre}ok" "${pre}start" "${pre}secs" "${pre}types" "${pre}reg")
pids=()
for g in "${groups[@]}"; do
	"$CCBENCH" rados write -p "$POOL" -d 2s -b 64K -t 2 --group "$g" --members 1 \
		--group-timeout 60s -q -f json >"$g.json" 2>"$g.err" &
	pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || fail "a group member failed: $(cat ./*.err)"
done

# poison_result GROUP PYTHON: edit the stored result d of GROUP's member in place.
poison_result() {
	local g=$1 id oid
	id=$(jget "$g.json" 'd["group"]["member"]')
	oid="$g.result.$id"
	R get "$oid" "$g.doc"
	python3 - "$g.doc" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(d, open(sys.argv[1], "w"))
PY
	R put "$oid" "$g.doc"
}
# 100 s from 1e17: beyond the double's unit there (16), where t += 1 stood still.
poison_result "${pre}start" 'd["start_realtime"] = 1e17; d["result"]["seconds"] = 100'
poison_result "${pre}secs" 'd["result"]["seconds"] = 1e12'
poison_result "${pre}types" 'd["start_realtime"] = "soon"; d["result"]["series"] = {"t": 1}'
# The registration (omap "member.ID") of a member: a start far in the future
# and a host that is not a string; its stored result is removed, so the
# report would take the registration's start.
g="${pre}reg"
id=$(jget "$g.json" 'd["group"]["member"]')
R rm "$g.result.$id"
R getomapval "$g" "member.$id" reg.json >/dev/null
python3 - reg.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["start_realtime"] = 1e17
d["host"] = ["not", "a", "string"]
json.dump(d, open(sys.argv[1], "w"))
PY
R setomapval "$g" "member.$id" "$(cat reg.json)"

# group ls: ends, lists every group, names the malformed members.
rc=0
timeout -k 5 60 "$CCBENCH" group ls --group-pool "$POOL" -f json >ls.json 2>ls.err || rc=$?
[ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "group ls did not end within 60 s"
[ "$rc" = 0 ] || fail "group ls exited $rc: $(cat ls.err)"
python3 - ls.json "$pre" <<'PY'
import json, sys
ls = {g["name"]: g for g in json.load(open(sys.argv[1]))}
pre = sys.argv[2]
assert ls[pre + "ok"]["status"] == "complete", ls.get(pre + "ok")
for s in ["start", "secs", "types", "reg"]:
    assert ls[pre + s]["status"] == "incomplete", (s, ls.get(pre + s))
PY
for s in start secs types reg; do
	grep -q "group ${pre}$s: member .*: malformed record" ls.err ||
		fail "group ls: no malformed record named for ${pre}$s: $(cat ls.err)"
done

# group report on each poisoned group: ends, exits 1 (incomplete), names it.
for s in start secs types reg; do
	g="${pre}$s"
	id=$(jget "$g.json" 'd["group"]["member"]')
	rc=0
	timeout -k 5 60 "$CCBENCH" group report "$g" --group-pool "$POOL" -f json --svg "$g.svg" \
		--csv "$g.csv" >"$g.rep" 2>"$g.rerr" || rc=$?
	[ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "group report $g did not end within 60 s"
	[ "$rc" = 1 ] || fail "group report $g exited $rc, want 1: $(cat "$g.rerr")"
	grep -q "member $id: malformed record" "$g.rerr" || fail "$g: stderr does not name $id: $(cat "$g.rerr")"
	python3 - "$g.rep" "$id" <<'PY' || fail "$g: report does not name the malformed member"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "incomplete", r["status"]
assert [m["member"] for m in r["malformed"]] == [sys.argv[2]], r["malformed"]
assert r["members"][0]["state"] == "malformed" and r["members"][0]["reason"], r["members"][0]
assert r["aggregate"]["members"] == 0 and r["window"] is None
PY
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$g.svg" ||
		fail "$g: --svg is not well-formed"
	timeout -k 5 60 "$CCBENCH" group report "$g" --group-pool "$POOL" >"$g.txt" 2>/dev/null || true
	grep -q "^MALFORMED" "$g.txt" || fail "$g: the text report has no MALFORMED line"
done
expect_rc 0 timeout -k 5 60 "$CCBENCH" group report "${pre}ok" --group-pool "$POOL" -q -f json
for g in "${groups[@]}"; do
	"$CCBENCH" group rm "$g" --group-pool "$POOL" >/dev/null
done
[ -z "$(R ls | grep "^$pre" || true)" ] || fail "group objects left: $(R ls | grep "^$pre")"
