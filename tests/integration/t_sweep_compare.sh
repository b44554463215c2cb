# compare exits 0 (within tolerance), 1 (regression), 2 (files that do not
# match); report re-renders a saved sweep; bad configs exit 2 naming the
# line and column or the key.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cat >cfg.json <<'CFG'
{"name": "scale", "command": "rados write", "params": {"op-size": "1M", "queue-depth": 4, "duration": "1s"},
 "matrix": {"clients": [1, 2]}, "repeat": 1}
CFG
"$CCBENCH" sweep cfg.json -p "$POOL" --json base.json -q >/dev/null
python3 - <<'PY'
import json
d = json.load(open("base.json"))
assert d["status"] == "ok" and len(d["points"]) == 2
assert len(d["points"][1]["runs"][0]["clients"]) == 2   # per-client breakdown
def scaled(f, out):
    e = json.load(open("base.json"))
    for p in e["points"]:
        p["aggregate"]["bandwidth_mib_s"]["mean"] *= f
    json.dump(e, open(out, "w"))
scaled(0.95, "slightly.json"); scaled(0.5, "halved.json"); scaled(2.0, "doubled.json")
e = json.load(open("base.json")); e["points"] = e["points"][:1]; json.dump(e, open("fewer.json", "w"))
PY
expect_rc 0 "$CCBENCH" compare base.json slightly.json
expect_rc 0 "$CCBENCH" compare base.json doubled.json
expect_rc 1 "$CCBENCH" compare base.json halved.json
expect_rc 0 "$CCBENCH" compare base.json halved.json --tolerance 60%
expect_rc 2 "$CCBENCH" compare base.json fewer.json
expect_rc 2 "$CCBENCH" compare base.json /etc/hostname
expect_rc 2 "$CCBENCH" compare base.json slightly.json --tolerance lots
out=$("$CCBENCH" compare base.json halved.json || true)
printf '%s' "$out" | gq REGRESSED || fail "no REGRESSED line"
# A single run compares with itself by command.
"$CCBENCH" rados write -p "$POOL" -d 1s -b 64K -q -f json >one.json
expect_rc 0 "$CCBENCH" compare one.json one.json
expect_rc 0 "$CCBENCH" compare one.json one.json --metric p99

"$CCBENCH" report base.json --csv r.csv --svg r.svg >r.txt
grep -q "^clients" r.txt || fail "report table"
[ "$(wc -l <r.csv)" = 3 ] || fail "report csv"
python3 -c 'import xml.etree.ElementTree as E; E.parse("r.svg")'

bad() { # bad PATTERN CONFIG-TEXT
	printf '%s' "$2" >bad.json
	expect_refused --one "$1" "$CCBENCH" sweep bad.json -p "$POOL"
}
bad "bad.json:2:" $'{"command": "rados write",\n "matrix": {"clients": [1,]}}'
bad "unknown key 'bogus'" '{"command": "rados write", "matrix": {"clients": [1]}, "bogus": 1}'
bad "matrix.clients must be a non-empty list" '{"command": "rados write", "matrix": {"clients": []}}'
bad "clients '0'" '{"command": "rados write", "matrix": {"clients": [0, 1]}}'
bad "queue-depth 'deep'" '{"command": "rados write", "params": {"queue-depth": "deep"}, "matrix": {"clients": [1]}}'
bad "'repeat' must be" '{"command": "rados write", "repeat": "3", "matrix": {"clients": [1]}}'
bad "no such option" '{"command": "rados write", "matrix": {"warp": [1]}}'
bad "not a workload" '{"command": "cleanup", "matrix": {"clients": [1]}}'
bad "expected a value" '{"command": "rados write", "params": {"op-size": true}, "matrix": {"clients": [1]}}'
[ -z "$(ns_objects)" ] || fail "objects left: $(ns_objects | head -3)"
