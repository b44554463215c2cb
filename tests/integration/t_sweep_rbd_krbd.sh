# A 2x2 sweep (two readahead values x librbd and the kernel path, tiny sizes)
# writes the table, JSON, CSV and SVG; the JSON holds every run; one image
# served all points; read_ahead_kb is restored and no image is left.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh" # our own CCB_STATE_DIR: fuse mounts and loops under it

# map-via is a krbd option: given in params, the librbd points would get
# it too and be refused; scoped to path_params.krbd, only the krbd points
# see it (checked below in each run's parameters).
cat >s.json <<CFG
{"name": "t", "command": "rbd read",
 "params": {"size": "16M", "io-size": "64K", "map-via": "fuse-loop"},
 "matrix": {"readahead": ["128K", "1M"], "path": ["librbd", "krbd"]},
 "repeat": 2}
CFG
expect_refused --one "path=librbd}: --map-via: not an option" "$CCBENCH" sweep s.json -p rbd --dry-run
python3 - <<'PY'
import json
c = json.load(open("s.json"))
c["path_params"] = {"krbd": {"map-via": c["params"].pop("map-via")}}
json.dump(c, open("s.json", "w"))
PY
"$CCBENCH" sweep s.json -p rbd --json out.json --csv out.csv --svg out.svg >table.txt 2>err.txt || { cat err.txt; fail "sweep failed"; }
cat table.txt
grep -q "^readahead" table.txt || fail "no table"
grep -q "path=librbd" table.txt && grep -q "path=krbd" table.txt || fail "table columns"
python3 - <<'PY'
import json, xml.etree.ElementTree as ET
d = json.load(open("out.json"))
assert d["kind"] == "sweep" and d["status"] == "ok", d["status"]
assert len(d["points"]) == 4
for p in d["points"]:
    assert len(p["runs"]) == 2, p["matrix"]
    assert all(r["status"] == "ok" for r in p["runs"])
    assert p["aggregate"]["bandwidth_mib_s"]["mean"] > 0
    path = p["matrix"]["path"]
    for r in p["runs"]:
        assert r["path"] == ("krbd" if path == "krbd" else "librbd"), r["path"]
        if path == "krbd":   # path_params.krbd reached the krbd runs (the default is auto)
            assert r["parameters"]["map-via"] == "fuse-loop", r["parameters"]["map-via"]
            assert r["layout"]["map_via"] == "fuse-loop", r["layout"]["map_via"]
        else:
            assert "map-via" not in r["parameters"], r["parameters"]
images = {r["layout"]["image"] for p in d["points"] for r in p["runs"] if r["path"] == "librbd"}
assert len(images) == 1, images          # one prefilled image served every librbd point
assert all(r["layout"]["read_ahead_kb"]["after"] == r["layout"]["read_ahead_kb"]["before"]
           for p in d["points"] for r in p["runs"] if r["path"] == "krbd")
svg = ET.parse("out.svg").getroot()
ns = {"s": "http://www.w3.org/2000/svg"}
assert len(svg.findall(".//s:g[@class='series']", ns)) == 2
rows = open("out.csv").read().strip().splitlines()
assert len(rows) == 5 and rows[0].startswith("point,command")
PY
[ -z "$(new_images)" ] || fail "images left: $(new_images)"
[ -z "$(our_loop_files)" ] || fail "loop device left: $(our_loop_files)"
[ -z "$(our_mounts)" ] || fail "mount left: $(our_mounts)"
! pgrep -f "rbd-fuse.*$CCB_STATE_DIR/" >/dev/null || fail "rbd-fuse left running"
