# A sweep's pool is the point's pool: read points with "pool" in the matrix
# (or params) read an image made in that pool, one prefilled image per
# pool, none left afterwards; -p on the command line replaces a config's
# pool like --param pool=POOL.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cat >pools.json <<CFG
{"name": "pools", "command": "rbd read",
 "params": {"size": "16M", "io-size": "64K", "duration": "1s"},
 "matrix": {"pool": ["rbd", "$POOL"], "readahead": ["128K", "1M"]}}
CFG
"$CCBENCH" sweep pools.json -q --json pools-out.json >/dev/null 2>err.txt || { cat err.txt; fail "sweep failed"; }
python3 - "$POOL" <<'PY'
import json, sys
d = json.load(open("pools-out.json"))
assert d["status"] == "ok", d["status"]
images = {}
for p in d["points"]:
    for r in p["runs"]:
        assert r["status"] == "ok"
        # The image was made in, and read from, the point's own pool.
        assert r["layout"]["pool"] == p["matrix"]["pool"], (p["matrix"], r["layout"]["pool"])
        assert r["parameters"]["pool"] == p["matrix"]["pool"], r["parameters"]["pool"]
        images.setdefault(p["matrix"]["pool"], set()).add(r["layout"]["image"])
assert set(images) == {"rbd", sys.argv[1]}, images
assert all(len(v) == 1 for v in images.values()), images   # one shared image per pool
PY
[ -z "$(new_images)" ] || fail "image left in rbd: $(new_images)"
[ -z "$(rbd ls "$POOL" 2>/dev/null)" ] || fail "image left in $POOL: $(rbd ls "$POOL")"

# -p replaces the config's pool axis: every point reads from $POOL.
"$CCBENCH" sweep pools.json -p "$POOL" -q --json p-out.json --param readahead=1M >/dev/null 2>err.txt ||
	{ cat err.txt; fail "sweep -p failed"; }
python3 - "$POOL" <<'PY'
import json, sys
d = json.load(open("p-out.json"))
assert d["status"] == "ok" and len(d["points"]) == 1, (d["status"], len(d["points"]))
assert d["points"][0]["runs"][0]["layout"]["pool"] == sys.argv[1]
PY
