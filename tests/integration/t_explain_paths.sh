# The paths that lend no rados handle carry the cluster's state too (issue
# 13): a krbd read of a temporary image and an fs write each have
# cluster_state at the start and the end, with the health the mon gave, read
# on a short-lived connection of their own; on this healthy cluster explain
# has no cluster warning for either, and says how the host reaches the
# cluster (loopback), which it learns from that state.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

# state_ok FILE WHAT: cluster_state start and end, each with a health the
# mon gave and every OSD up; no cluster entry above info in explain.
state_ok() {
	python3 - "$1" "$2" <<'PY' || fail "$2: cluster_state or explain wrong"
import json, sys
d = json.load(open(sys.argv[1]))
cs = d.get("cluster_state")
assert isinstance(cs, dict), "no cluster_state"
for when in ("start", "end"):
    st = cs.get(when)
    assert isinstance(st, dict) and "error" not in st, (when, st)
    assert st["health"].startswith("HEALTH_"), (when, st["health"])
    assert st["osds"] >= 3 and st["osds_up"] == st["osds"], (when, st)
    assert st["mon_addrs"], (when, "no mon address")
bad = [e for e in d["explain"] if e["kind"] == "cluster" and e["severity"] != "info"]
assert not bad, bad
assert any(e["kind"] == "network" for e in d["explain"]), "no network entry: no route resolved"
print(sys.argv[2], "health", cs["start"]["health"], "->", cs["end"]["health"],
      ";".join(e["kind"] + ":" + e["severity"] for e in d["explain"]))
PY
}

"$CCBENCH" krbd read --size 16M --map-via fuse-loop -q -f json >k.json
state_ok k.json "krbd temporary image"
[ "$(jget k.json 'd["layout"]["more_in_flight"]')" = \
	"add --streams or raise --read-ahead-kb (or --direct with -t)" ] ||
	fail "krbd: no more_in_flight in the layout"
assert_unmapped

"$CCBENCH" fs write --file-size 8M --block-size 1M -q -f json >f.json
state_ok f.json "fs write"
[ "$(jget f.json 'd["layout"]["more_in_flight"]')" = "add --clients" ] ||
	fail "fs: no more_in_flight in the layout"
"$CCBENCH" fs write --file-size 4M --block-size 1M -q >f.txt
grep -q "^why  *mons and OSDs on this host (loopback)" f.txt || fail "fs write text: no network why line"
# --explain=off: no connection of its own, no state.
"$CCBENCH" fs write --file-size 4M --block-size 1M --explain=off -q -f json >off.json
[ "$(jget off.json '"cluster_state" in d')" = False ] || fail "--explain=off read the cluster state"

# The saved results re-derive the same kinds.
for f in k.json f.json; do
	[ "$("$CCBENCH" explain -f json $f | python3 -c 'import json,sys; print(";".join(e["kind"] for e in json.load(sys.stdin)))')" = \
		"$(jget $f '";".join(e["kind"] for e in d["explain"])')" ] || fail "explain $f: other kinds"
done
[ -z "$(new_images)" ] || fail "images left: $(new_images)"
