# fs write is sweepable: a config over clients 1, 2 runs, and each point
# has the per-client breakdown; the run directories are gone.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cat >fs.json <<'CFG'
{"name": "fsscale", "command": "fs write", "params": {"file-size": "16M", "block-size": "1M"},
 "matrix": {"clients": [1, 2]}}
CFG
"$CCBENCH" sweep fs.json --json out.json -q >table.txt
grep -q "^clients" table.txt || fail "no table"
python3 - <<'PY'
import json
d = json.load(open("out.json"))
assert d["status"] == "ok", d["status"]
for p in d["points"]:
    r = p["runs"][0]
    assert r["status"] == "ok" and r["path"] == "cephfs"
    assert r["bytes"] == 16 * 2**20 * p["matrix"]["clients"], r["bytes"]
assert len(d["points"][1]["runs"][0]["clients"]) == 2
PY
