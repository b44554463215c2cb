# --output never replaces what is not a regular file: a character device
# node that is the null device (our own, made with mknod) stays a device,
# a symlink stays a link and its target gets the result, an appended
# /dev/stdout keeps what was there; a regular file is replaced whole with
# its mode kept and no temporary file left beside it. A FIFO (whose reader,
# or none, would hold the run) and a block device are refused. Sweep and
# report outputs take the same path.
# In a sticky world-writable directory, a symlink owned by nobody at every
# output option (rados write --output/--html, sweep --json/--csv/--svg, report
# --output/--csv/--html, group report --csv) pointing at a root-owned 0600 file,
# or dangling: refused with exit 2 before the run, the target unchanged or
# never created; root's own link there is followed (fs.protected_symlinks).
# A group member record with terminal escapes and a formula cell: group
# report text and CSV print them escaped (issue 31). Key material given
# with -o key=... (the real client.admin key, so the run connects) is in no
# output: not stdout, stderr, --output, a sweep's --json, nor a group's
# records.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

run() { "$CCBENCH" rados write -p "$POOL" -d 1s -b 64K -t 2 -q -f json "$@"; }
is_result() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["status"] == "ok", d["status"]' "$1"; }

mkdir out && cd out

# A character device given as --output: written, never replaced.
mknod null c 1 3
run --output null
[ -c null ] || fail "--output on a character device node replaced it: $(ls -l null)"
# The real /dev/null takes the same path (only once the node above survived).
run --output /dev/null
[ -c /dev/null ] || fail "/dev/null is no longer a character device"

# A symlink: the link stays, the target holds the result.
echo old >target.json
ln -s target.json link.json
run --output link.json
[ -L link.json ] || fail "the symlink was replaced by a file"
is_result target.json || fail "the symlink's target does not hold the result"

# A FIFO: refused before the run (exit 2), never opened, and it stays.
mkfifo fifo
expect_refused "a FIFO" run --output fifo
[ -p fifo ] || fail "the FIFO was replaced"
[ -z "$(ns_objects)" ] || fail "a run refused for its FIFO wrote objects: $(ns_objects | head -3)"

# /dev/stdout appended to a log: what was there stays.
echo "earlier line" >log
run --output /dev/stdout >>log
head -1 log | gq -x "earlier line" || fail "--output /dev/stdout >>log lost the log's first line"
tail -n +2 log >from_stdout.json
is_result from_stdout.json || fail "--output /dev/stdout: no result after the earlier line"

# A regular file: replaced whole, its mode kept, nothing left beside it.
echo old >plain.json
chmod 640 plain.json
run --output plain.json
is_result plain.json || fail "plain.json does not hold the result"
[ "$(stat -c %a plain.json)" = 640 ] || fail "mode of plain.json: $(stat -c %a plain.json), want 640"

# Sweep and report write through the same function.
cat >../cfg.json <<'CFG'
{"command": "rados write", "params": {"op-size": "64K", "duration": "1s"}, "matrix": {"clients": [1]}}
CFG
echo old >sweep_target.json
ln -s sweep_target.json sweep_link.json
"$CCBENCH" sweep ../cfg.json -p "$POOL" --json sweep_link.json --csv null -q >/dev/null
[ -L sweep_link.json ] || fail "sweep --json replaced the symlink"
[ -c null ] || fail "sweep --csv replaced the device node"
jget sweep_target.json 'd["kind"]' | gq -x sweep || fail "sweep --json: the target holds no sweep"
"$CCBENCH" report plain.json --csv null -f csv >/dev/null
[ -c null ] || fail "report --csv replaced the device node"

# A block device node is refused and left alone.
mknod blk b 7 200
rc=0
msg=$(run --output blk 2>&1 >/dev/null) || rc=$?
[ "$rc" != 0 ] || fail "--output on a block device succeeded"
printf '%s' "$msg" | gq "block device" || fail "no 'block device' in: $msg"
[ -b blk ] || fail "the block device node was replaced"
rm -f blk

# ---- links planted in a sticky, world-writable directory ---------------------
# A link nobody owns, as nobody would plant it (lchown: the test's cwd need
# not be reachable for nobody), at each output option.
mkdir -m 1777 sticky
echo secret >victim
chmod 600 victim
plant() { # plant NAME TARGET
	ln -s "$2" "sticky/$1"
	chown -h nobody:nogroup "sticky/$1"
}
plant r.json ../victim
plant d.json ../absent.json
refused_link() { # refused_link CMD...: exit 2 naming the rule, victim intact, nothing created
	expect_refused "protected_symlinks" "$@"
	[ "$(cat victim)" = secret ] || fail "the victim changed: $*"
	[ "$(stat -c %a victim)" = 600 ] || fail "the victim's mode changed: $*"
	[ ! -e absent.json ] || fail "a file was created through a dangling link: $*"
}
for l in r.json d.json; do
	refused_link run --output "sticky/$l"
	refused_link "$CCBENCH" sweep ../cfg.json -p "$POOL" --json "sticky/$l" -q
	refused_link "$CCBENCH" sweep ../cfg.json -p "$POOL" --csv "sticky/$l" -q
	refused_link "$CCBENCH" sweep ../cfg.json -p "$POOL" --svg "sticky/$l" -q
	refused_link "$CCBENCH" report sweep_target.json --svg "sticky/$l"
	refused_link "$CCBENCH" report plain.json --output "sticky/$l" -f json
	refused_link "$CCBENCH" report plain.json --csv "sticky/$l"
	refused_link run --html "sticky/$l"
	refused_link "$CCBENCH" report plain.json --html "sticky/$l"
done
[ -z "$(ns_objects)" ] || fail "refused runs wrote objects: $(ns_objects | head -3)"
# Root's own link in the sticky directory, and in its own one: followed.
echo old >own_target.json
ln -s ../own_target.json sticky/own.json
"$CCBENCH" report plain.json --output sticky/own.json -f json
[ -L sticky/own.json ] || fail "root's own link in the sticky directory was replaced"
is_result own_target.json || fail "root's own link: the target does not hold the result"
rm -f sticky/own.json sticky/r.json sticky/d.json own_target.json victim
rmdir sticky

left=$(ls -A | grep -v -x -e null -e target.json -e link.json -e fifo \
	-e log -e from_stdout.json -e plain.json -e sweep_target.json -e sweep_link.json \
	-e refused.out -e refused.err || true)
[ -z "$left" ] || fail "files left beside the outputs: $left"
[ -z "$(ns_objects)" ] || fail "objects left: $(ns_objects | head -3)"

# ---- key material ----------------------------------------------------------
cd ..
KEY=$(ceph-authtool -p -n client.admin "$CLUSTER_DIR/keyring")
[ -n "$KEY" ] || fail "no client.admin key in $CLUSTER_DIR/keyring"
no_key() { # no_key FILE...: none holds the key
	local f
	for f in "$@"; do
		! grep -qF -- "$KEY" "$f" || fail "$f holds the client.admin key: $(grep -F -- "$KEY" "$f" | head -2)"
	done
}
"$CCBENCH" rados write -p "$POOL" -d 1s -b 64K -o "key=$KEY" -f json --output k.json >k.out 2>k.err ||
	fail "a run with -o key=KEY failed: $(cat k.err)"
"$CCBENCH" rados write -p "$POOL" -d 1s -b 64K -o "key=$KEY" >k.txt 2>>k.err
"$CCBENCH" rados write -p "$POOL" -d 1s -b 64K "-okey=$KEY" -f csv >k.csv 2>>k.err
no_key k.json k.out k.err k.txt k.csv
jget k.json 'd["parameters"]["set"]' | gq "key=<redacted>" || fail "parameters.set not redacted: $(jget k.json 'd["parameters"]["set"]')"
jget k.json 'd["argv"]' | gq "key=<redacted>" || fail "argv not redacted: $(jget k.json 'd["argv"]')"
cat >kcfg.json <<'CFG'
{"command": "rados write", "params": {"op-size": "64K", "duration": "1s"}, "matrix": {"clients": [1]}}
CFG
"$CCBENCH" sweep kcfg.json -p "$POOL" -o "key=$KEY" --json ksweep.json -q >ksweep.out 2>>k.err
no_key ksweep.json ksweep.out k.err
# A group of one: its registration and stored result are read by anyone.
G=gkey$$
"$CCBENCH" rados write -p "$POOL" -d 1s -b 64K -o "key=$KEY" --group "$G" --members 1 \
	--group-timeout 30s -q -f json >kgroup.json 2>>k.err || fail "group run: $(tail -3 k.err)"
# Values one by one into a file: listomapvals prints a hex dump, in which
# a key split across lines would not be found.
: >kgroup.omap
for k in $(rados -p "$POOL" -N ccbench-groups listomapkeys "$G"); do
	rados -p "$POOL" -N ccbench-groups getomapval "$G" "$k" kgroup.val >/dev/null
	cat kgroup.val >>kgroup.omap
	echo >>kgroup.omap
done
grep -q '"argv"' kgroup.omap || fail "no registration with argv read from the group object"
rados -p "$POOL" -N ccbench-groups ls | grep "^$G\." | while read -r o; do
	rados -p "$POOL" -N ccbench-groups get "$o" -
done >kgroup.objects
grep -q "key=<redacted>" kgroup.omap || fail "the group registration has no redacted argv"
[ -s kgroup.objects ] || fail "the group stored no result object"
"$CCBENCH" group report "$G" --group-pool "$POOL" -f json >kgroup.report 2>>k.err
no_key kgroup.json kgroup.omap kgroup.objects kgroup.report k.err
"$CCBENCH" group rm "$G" --group-pool "$POOL" >/dev/null

# ---- a member record with terminal escapes and a formula cell ----------------
# As another client of the cluster could write it: the registration of a
# member of a group that never started.
G2=gesc$$
rec=$(python3 -c 'import json; print(json.dumps({"member": "m1", "pid": 1,
	"host": "=HYPERLINK(\"http://x\")\u001b]0;owned\u0007", "state": "@run\u001b[2J\u009b1m",
	"command": "rados write"}))')
rados -p "$POOL" -N ccbench-groups create "$G2"
rados -p "$POOL" -N ccbench-groups setomapval "$G2" member.m1 "$rec"
"$CCBENCH" group report "$G2" --group-pool "$POOL" >gesc.txt 2>gesc.err || true
"$CCBENCH" group report "$G2" --group-pool "$POOL" -f csv --csv gesc2.csv >gesc.csv 2>>gesc.err || true
plant_csv=sticky2/c.csv
mkdir -m 1777 sticky2
ln -s ../gesc.txt "$plant_csv"
chown -h nobody:nogroup "$plant_csv"
expect_refused "protected_symlinks" "$CCBENCH" group report "$G2" --group-pool "$POOL" --csv "$plant_csv"
rm -f "$plant_csv"
rmdir sticky2
for f in gesc.txt gesc.csv gesc2.csv; do
	[ -s "$f" ] || fail "group report wrote nothing to $f: $(cat gesc.err)"
	! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$f" || fail "$f holds a raw control character: $(cat -v "$f")"
	! grep -q $'\xc2\x9b' "$f" || fail "$f holds a raw C1 CSI: $(cat -v "$f")"
done
grep -qF 'm1' gesc.txt || fail "the member is not in the text report: $(cat gesc.txt)"
# A member that never reported shows its registration's state (last_state).
grep -qF '@run\x1b[2J\u009b1m' gesc.txt || fail "the state is not shown escaped: $(cat -v gesc.txt)"
for f in gesc.csv gesc2.csv; do
	grep -qF ',"'"'"'=HYPERLINK(""http://x"")\x1b]0;owned\x07",' "$f" ||
		fail "$f: the host cell is not a quoted, quote-prefixed text: $(cat -v "$f")"
done
"$CCBENCH" group rm "$G2" --group-pool "$POOL" >/dev/null
[ -z "$(ns_objects)" ] || fail "objects left: $(ns_objects | head -3)"
