# Every result names its releases: the client libraries' runtime versions
# and the cluster's daemons' (the mon's "versions", as `ceph versions`
# prints them), checked against independent sources (the ceph CLI and the
# Python bindings of the same libraries); in run, sweep and group results,
# with --explain=off too, on every path that talks to the cluster; none of
# the cluster for a krbd --device run that does not. compare refuses a
# gate across releases unless --allow-release-change, and says so for a
# point release or a baseline that names none. `ccbench --version` prints
# the libraries' versions. About 40 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

# The independent view: `ceph versions` and the CLI's own version.
ceph_cli versions >versions.json
ceph --version >cli.txt
python3 - versions.json cli.txt >want.txt <<'PY'
import json, re, sys
names = {16: "pacific", 17: "quincy", 18: "reef", 19: "squid", 20: "tentacle", 21: "umbrella"}
d = json.load(open(sys.argv[1]))
vs, rel = set(), set()
for kind, by in d.items():
    if kind == "overall":
        continue
    for text in by:
        m = re.match(r"ceph version (\d+)\.(\d+)\.(\d+)\S* \(\S+\) (\w+)", text)
        vs.add(text.split()[2])
        rel.add(names.get(int(m.group(1)), m.group(4)))
cli = open(sys.argv[2]).read().split()[2]
print("+".join(sorted(rel, key=lambda n: [k for k, v in names.items() if v == n] or [99])))
print(",".join(sorted(vs)))
print(cli, names[int(cli.split(".")[0])])
PY
{
	read -r want_rel
	read -r want_versions
	read -r want_client want_client_rel
} <want.txt
echo "note: cluster $want_rel ($want_versions), client $want_client ($want_client_rel)"

# --version: the libraries this binary runs with.
"$CCBENCH" --version >v.txt
grep -q "^ccbench " v.txt || fail "--version: no ccbench line: $(cat v.txt)"
lib_rados=$(/usr/bin/python3 -c 'import rados; print(rados.Rados().version())')
grep -q "librados $lib_rados, " v.txt || fail "--version: librados is $lib_rados: $(cat v.txt)"
grep -q "libcephfs $want_client (ceph $want_client, $want_client_rel)" v.txt ||
	fail "--version: not the client libraries of ceph $want_client: $(cat v.txt)"

check_run() { # check_run FILE: the result names the releases above
	jcheck "$1" \
		"d['releases']['cluster']['release'] == '$want_rel'" \
		"','.join(d['releases']['cluster']['ceph_versions']) == '$want_versions'" \
		"d['releases']['cluster']['versions'] == json.load(open('versions.json'))" \
		"d['releases']['client']['ceph_version'] == '$want_client'" \
		"d['releases']['client']['release'] == '$want_client_rel'" \
		"d['releases']['client']['librados'] == '$lib_rados'" \
		"d['releases']['client']['libcephfs'] == '$want_client'"
}

# rados, through the run's own handle.
"$CCBENCH" rados write -p "$POOL" -b 64K -d 1s -q -f json >one.json
check_run one.json
# The OSD scheduler of the OSD it names, as that OSD says.
osd=$(jget one.json 'd["cluster_state"]["start"]["osd_scheduler"]["osd"]')
q=$(ceph_cli tell "$osd" config get osd_op_queue -f json | python3 -c 'import json,sys; print(json.load(sys.stdin)["osd_op_queue"])')
jcheck one.json "d['cluster_state']['start']['osd_scheduler']['osd_op_queue'] == '$q'" \
	"any(e['kind'] == 'scheduler' for e in d['explain'])"
# explain re-derives the same line from the saved result alone.
line=$(jget one.json '[e["text"] for e in d["explain"] if e["kind"] == "scheduler"][0]')
"$CCBENCH" explain one.json | gq -F "$line" || fail "explain one.json: not the stored scheduler line: $line"
echo "note: $line"
# The text view: one line.
"$CCBENCH" rados write -p "$POOL" -b 64K -d 1s -q >one.txt
grep -q "^releases  *cluster $want_rel ($want_versions), client $want_client_rel ($want_client: librados $lib_rados, librbd " one.txt ||
	fail "text: no releases line: $(grep releases one.txt || head -3 one.txt)"
# --explain=off: no cluster_state, the releases all the same.
"$CCBENCH" rados write -p "$POOL" -b 64K -d 1s --explain off -q -f json >off.json
check_run off.json
jcheck off.json "'cluster_state' not in d"

# CephFS: a connection of its own for the state.
"$CCBENCH" fs write -q --file-size 4M --block-size 1M -f json >fs.json
check_run fs.json
# A block device, no cluster: the client only.
file_loop 8
"$CCBENCH" krbd read --device "$LOOP" -q -f json >dev.json
jcheck dev.json "'cluster' not in d['releases']" "d['releases']['client']['ceph_version'] == '$want_client'" \
	"d['releases']['client']['kernel'] == '$(uname -r)'"

# A sweep: its runs', and a summary at the top.
cat >cfg.json <<'CFG'
{"name": "rel", "command": "rados write", "params": {"op-size": "64K", "duration": "1s"},
 "matrix": {"queue-depth": [1, 4]}, "repeat": 1}
CFG
"$CCBENCH" sweep cfg.json -p "$POOL" --json sweep.json -q >sweep.txt
jcheck sweep.json "d['releases']['cluster']['release'] == '$want_rel'" \
	"d['releases']['client']['ceph_versions'] == ['$want_client']" \
	"all(r['releases']['cluster']['release'] == '$want_rel' for p in d['points'] for r in p['runs'])"
grep -q "^releases: cluster $want_rel" sweep.txt || fail "sweep text: no releases line: $(head -3 sweep.txt)"

# A group of one: its report, over its members' results.
G=grel$$
drop_group() { "$CCBENCH" group rm "$G" --group-pool "$POOL" >/dev/null 2>&1; }
on_exit drop_group
"$CCBENCH" rados write -p "$POOL" -b 64K -d 1s --group "$G" --members 1 --group-timeout 30s -q >/dev/null
"$CCBENCH" group report "$G" --group-pool "$POOL" -f json >g.json
jcheck g.json "d['releases']['cluster']['release'] == '$want_rel'" \
	"d['releases']['client']['release'] == '$want_client_rel'"
"$CCBENCH" group report "$G" --group-pool "$POOL" | gq "^releases  *cluster $want_rel" ||
	fail "group report text: no releases line"

# compare: the same releases gate as before.
expect_rc 0 "$CCBENCH" compare one.json off.json --tolerance 1000
# Another release of the cluster (as a saved result from elsewhere would say).
python3 - one.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
other = "squid" if d["releases"]["cluster"]["release"] != "squid" else "reef"
e = json.loads(json.dumps(d)); e["releases"]["cluster"]["release"] = other
e["releases"]["cluster"]["ceph_versions"] = ["19.2.1" if other == "squid" else "18.2.7"]
json.dump(e, open("other.json", "w"))
e = json.loads(json.dumps(d)); e["releases"]["client"]["ceph_version"] += "-1"
json.dump(e, open("point.json", "w"))
e = json.loads(json.dumps(d)); del e["releases"]
json.dump(e, open("old.json", "w"))
PY
expect_refused "different Ceph releases: cluster: $want_rel" "$CCBENCH" compare one.json other.json --tolerance 1000
grep -q "allow-release-change" refused.err || fail "the refusal does not name --allow-release-change"
expect_rc 2 "$CCBENCH" compare other.json one.json --tolerance 1000
expect_rc 0 "$CCBENCH" compare one.json other.json --tolerance 1000 --allow-release-change
"$CCBENCH" compare one.json point.json --tolerance 1000 2>point.err >/dev/null || fail "a point release refused"
grep -q "same releases, other versions" point.err || fail "no note for a point release: $(cat point.err)"
"$CCBENCH" compare old.json one.json --tolerance 1000 2>old.err >/dev/null || fail "an old baseline refused"
grep -q "cannot be compared" old.err || fail "no note for an old baseline: $(cat old.err)"
# Bad input: refused before anything is read or contacted.
expect_refused --within 2 --one "takes no value" "$CCBENCH" compare one.json other.json --allow-release-change=yes
expect_refused --within 2 --one "not an option of this command" "$CCBENCH" rados write -p "$POOL" --allow-release-change
[ -z "$(ns_objects)" ] || fail "objects left: $(ns_objects | head -3)"
