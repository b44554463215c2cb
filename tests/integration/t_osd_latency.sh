# --osd-latency DUR (issue 24): the OSDs delay every client's messages, a
# change outside ccbench that goes back on every end. Checked on the OSDs
# themselves (`tell osd.N config diff`), never on what ccbench says:
# - bad input is refused before the cluster (exit 2), and --osd-latency-
#   cluster naming another cluster is refused with nothing changed;
# - a run with it: the probe and the run see the latency (a bound from
#   below: the delay is added whatever the machine), the result says
#   side "osd", and every OSD is back to its earlier values after; an
#   override an OSD had before (ms_inject_delay_max 0.5) is put back as an
#   override, the others are unset, as they were;
# - a client without osd 'allow *' caps: refused (exit 2), nothing set;
# - SIGTERM mid-run: put back (exit 143); SIGKILL mid-run: the state file
#   and the cluster (mon config-key ccbench/run/...) hold the records; with
#   the state directory wiped (a client reboot), `ccbench restore -c CONF`
#   puts the values back and removes the temporary image;
# - an OSD restarted mid-run: the result names it, explain distrusts the
#   run, the undo says it lost the setting (nothing to put back there);
# - an OSD marked down and up again mid-run (a new up_from, the same
#   process): not lost, and put back like the others;
# - an OSD already injecting delays (someone else's): refused, nothing set.
# About 2 minutes (one OSD restart, one mark-down).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

osds=$(ceph_cli osd ls)
# The three keys as each OSD holds them at run time: "osd.N key=override ..."
# (config diff lists only what differs from the default).
inject_state() {
	local id
	for id in $osds; do
		echo "osd.$id $(timeout 60 ceph --connect-timeout 10 tell "osd.$id" config diff 2>/dev/null |
			python3 -c '
import json, sys
d = json.load(sys.stdin)["diff"]
print(" ".join("%s=%s" % (k, d[k].get("override")) for k in sorted(d) if k.startswith("ms_inject_delay") and "override" in d[k]))')"
	done
}
clean=$(inject_state)
unset_all() {
	local id k
	for id in $osds; do
		for k in ms_inject_delay_probability ms_inject_delay_type ms_inject_delay_max; do
			timeout 60 ceph --connect-timeout 10 tell "osd.$id" config unset $k >/dev/null 2>&1 || true
		done
	done
}
on_exit unset_all
fsid=$(ceph_cli fsid)

# ---- bad input: exit 2, one message, before the cluster ----------------------
chk() { expect_refused --one "$1" "$CCBENCH" "${@:2}"; }
chk "out of range" rbd read --osd-latency 50us
chk "out of range" rbd read --osd-latency 11s
chk "not a duration" rbd read --osd-latency fast
chk "only with --osd-latency" rbd read --osd-latency-cluster "$fsid"
chk "expected the cluster's fsid" rbd read --osd-latency 5ms --osd-latency-cluster nope
chk "not per member" rbd read --osd-latency 5ms --group g --members 2
chk "not an option of this command" krbd restore --osd-latency 5ms
[ "$(inject_state)" = "$clean" ] || fail "bad input changed the OSDs: $(inject_state)"

if [ -n "${CCB_SLOW_MS:-}" ]; then
	# A --slow cluster already injects (from its conf): refused, nothing set.
	expect_rc 1 "$CCBENCH" rbd read --size 16M --osd-latency 5ms -q -f json >/dev/null 2>busy.err
	grep -q "already injects delays" busy.err || fail "not refused: $(cat busy.err)"
	[ "$(inject_state)" = "$clean" ] || fail "changed the OSDs: $(inject_state)"
	echo "note: a --slow cluster injects already: --osd-latency refused, as it should"
	exit 0
fi

# ---- another cluster's fsid: refused, nothing changed ------------------------
expect_refused "this cluster is $fsid" "$CCBENCH" rbd read --size 16M --osd-latency 5ms \
	--osd-latency-cluster 00000000-0000-0000-0000-000000000000 -q -f json
[ "$(inject_state)" = "$clean" ] || fail "the refusal changed the OSDs: $(inject_state)"

# ---- a client the OSDs do not take commands from: refused, nothing set -------
# (What could not be set could not be put back either.)
ceph_cli auth get-or-create "client.osdlat$$" mon 'allow r' osd "allow rwx pool=$POOL" >limited.keyring
on_exit ceph --connect-timeout 10 auth del "client.osdlat$$"
expect_refused "osd 'allow \*' caps" "$CCBENCH" rbd read -p "$POOL" --size 16M --osd-latency 5ms \
	-n "client.osdlat$$" -k limited.keyring -q -f json
grep -q "nothing was changed" refused.err || fail "caps: $(cat refused.err)"
[ "$(inject_state)" = "$clean" ] || fail "the caps refusal changed the OSDs: $(inject_state)"

# ---- a run: measured, recorded, put back; an earlier override kept ----------
first=$(sed -n 1p <<<"$osds") # not echo | head: see gq in lib.sh
ceph_cli tell "osd.$first" config set ms_inject_delay_max 0.5 >/dev/null
before=$(inject_state)
echo "$before" | gq "osd.$first ms_inject_delay_max=0.5" || fail "no override to keep: $before"
"$CCBENCH" rbd read --size 32M --osd-latency 20ms -d 3s --cache-policy writeback --readahead 1M \
	-f json >run.json 2>run.err || fail "run exit $?: $(cat run.err)"
jcheck run.json \
	'd["status"] == "ok"' \
	'd["latency_injection"]["side"] == "osd"' \
	'd["latency_injection"]["osd_us"] == 20000' \
	'd["latency_injection"]["settings"]["ms_inject_delay_max"] == "0.040000"' \
	'd["latency_injection"]["settings"]["ms_inject_delay_type"] == "client"' \
	'sorted(d["latency_injection"]["osds"]) == sorted(int(x) for x in """'"$osds"'""".split())' \
	'd["latency_injection"]["probe"]["ops"] >= 10' \
	'd["latency_injection"]["probe"]["mean_us"] >= 8000' \
	'any(e["kind"] == "simulated" and "on the OSDs" in e["text"] for e in d["explain"])'
# 64K reads at depth 1: each miss of librbd's cache waits for the delay.
jcheck run.json 'd["latency_us"]["p99"] >= 5000'
[ "$(inject_state)" = "$before" ] || fail "not put back: $(inject_state), was $before"
echo "note: probe $(jget run.json 'round(d["latency_injection"]["probe"]["mean_us"] / 1000, 1)') ms mean for 20 ms injected; $(jget run.json 'round(d["bandwidth_mib_s"], 1)') MiB/s"
ceph_cli tell "osd.$first" config unset ms_inject_delay_max >/dev/null
[ "$(inject_state)" = "$clean" ] || fail "cannot get back to clean: $(inject_state)"

# While set, the OSDs hold it (seen from outside, during a run).
# (Not `| grep -q`: under pipefail, the writer's SIGPIPE fails the pipe.)
set_now() { [[ "$(inject_state)" == *ms_inject_delay_type=client* ]]; }

# ---- SIGTERM mid-run: put back -------------------------------------------------
"$CCBENCH" rbd read --size 32M --osd-latency 20ms -d 60s -q -f json >t.json 2>t.err &
pid=$!
wait_for 60 "the OSDs delay (SIGTERM case)" set_now
kill -TERM $pid
rc=0
wait $pid || rc=$?
[ $rc = 143 ] || fail "SIGTERM: exit $rc: $(cat t.err)"
[ "$(inject_state)" = "$clean" ] || fail "SIGTERM: not put back: $(inject_state)"

# ---- SIGKILL mid-run, the client's /run lost: restore -c from the cluster ------
# The records of cluster-side changes (the OSD delay, the temporary image)
# are kept on the cluster too, one mon config-key each: a reboot of the
# client host (its state directory wiped) does not strand them.
ccb_keys() { ceph_cli config-key ls 2>/dev/null | python3 -c '
import json, sys
print("\n".join(k for k in json.load(sys.stdin) if k.startswith("ccbench/run/")))'; }
[ -z "$(ccb_keys)" ] || fail "config-keys of ccbench before the SIGKILL case: $(ccb_keys)"
"$CCBENCH" rbd read --size 32M --osd-latency 20ms -d 60s -q -f json >/dev/null 2>k.err &
pid=$!
wait_for 60 "the OSDs delay (SIGKILL case)" set_now
image_recorded() { grep -ls '"kind": "rbd_image"' "$CCB_STATE_DIR"/run-*.json >/dev/null; }
wait_for 60 "the temporary image's record (SIGKILL case)" image_recorded
kill -KILL $pid
wait $pid 2>/dev/null || true
set_now || fail "SIGKILL: expected the OSDs to keep delaying"
grep -l '"osd_inject"' "$CCB_STATE_DIR"/run-*.json >/dev/null || fail "SIGKILL: no record in $CCB_STATE_DIR"
grep -q '"boot_id"' "$CCB_STATE_DIR"/run-*.json || fail "SIGKILL: the record has no boot id"
[ "$(ccb_keys | wc -l)" = 2 ] || fail "SIGKILL: expected 2 records on the cluster: $(ccb_keys)"
# As a reboot of the client host would: its state directory is gone. A
# fresh host view (an empty state directory) finds the records on the
# cluster; the run (this host, this boot, its pid gone) is dead.
rm -f "$CCB_STATE_DIR"/run-*.json
mkdir -m 0700 fresh-state
CCB_STATE_DIR=$PWD/fresh-state "$CCBENCH" restore -c "$CEPH_CONF" >rs.out 2>rs.err ||
	fail "restore -c exit $?: $(cat rs.out rs.err)"
grep -q "from its record on the cluster): OSD-side latency of cluster $fsid: put back on" rs.out ||
	fail "restore -c said: $(cat rs.out rs.err)"
[ "$(inject_state)" = "$clean" ] || fail "restore -c: not put back: $(inject_state)"
# (once the killed client's watch on the image expired)
grep -q "from its record on the cluster): removed the temporary image rbd/ccbench-" rs.out ||
	fail "restore -c did not remove the image: $(cat rs.out rs.err)"
[ -z "$(new_images)" ] || fail "images left after restore -c: $(new_images)"
[ -z "$(ccb_keys)" ] || fail "records left on the cluster after restore -c: $(ccb_keys)"
rmdir fresh-state
"$CCBENCH" restore -c "$CEPH_CONF" >rs2.out 2>&1 || fail "second restore -c: $(cat rs2.out)"
grep -q "nothing to restore" rs2.out || fail "second restore -c: $(cat rs2.out)"

# A record that names an image made since under that name (another id) is
# not acted on: the image stays, the record goes.
rbd create --size 4M rbd/ccbench-not-ours >/dev/null
mkdir -p "$CCB_STATE_DIR"
python3 - "$CCB_STATE_DIR/run-999999-1.json" "$fsid" "$CEPH_CONF" <<'PY'
import json, sys
json.dump({"ccbench_state": 1, "pid": 999999, "starttime": 1, "command": "ccbench rbd read",
           "entries": [{"kind": "rbd_image", "fsid": sys.argv[2], "pool": "rbd",
                        "image": "ccbench-not-ours", "id": "1234abcd", "entity": "client.admin",
                        "conf": sys.argv[3], "what": "remove the temporary image"}]},
          open(sys.argv[1], "w"))
PY
chmod 600 "$CCB_STATE_DIR/run-999999-1.json"
"$CCBENCH" krbd restore >ro.out 2>ro.err || fail "restore of a foreign record: exit $?: $(cat ro.out ro.err)"
grep -q "rbd/ccbench-not-ours is another image now" ro.out || fail "restore said: $(cat ro.out ro.err)"
rbd info rbd/ccbench-not-ours >/dev/null || fail "restore removed an image the record did not make"
rbd rm rbd/ccbench-not-ours >/dev/null 2>&1
! ls "$CCB_STATE_DIR"/run-*.json >/dev/null 2>&1 || fail "restore: foreign record's state file left"
# A record naming an image that is no temporary one of ccbench's (with the
# image's true id): refused as invalid, kept, nothing touched.
rbd create --size 4M rbd/precious >/dev/null
pid_=$(rbd info rbd/precious --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
cat >"$CCB_STATE_DIR/run-999999-1.json" <<EOF
{"ccbench_state": 1, "pid": 999999, "starttime": 1, "command": "ccbench rbd read",
 "entries": [{"kind": "rbd_image", "fsid": "$fsid", "pool": "rbd", "image": "precious",
              "id": "$pid_", "entity": "client.admin", "what": "remove the temporary image"}]}
EOF
chmod 600 "$CCB_STATE_DIR/run-999999-1.json"
rc=0
"$CCBENCH" krbd restore >rp.out 2>rp.err || rc=$?
[ $rc != 0 ] || fail "restore of an invalid record: exit 0"
grep -q "invalid record (rbd_image): image is not the name of a temporary image" rp.err ||
	fail "restore of an invalid record said: $(cat rp.out rp.err)"
rbd info rbd/precious >/dev/null || fail "restore removed an image that is not ccbench's"
rbd rm rbd/precious >/dev/null 2>&1
rm -f "$CCB_STATE_DIR"/run-999999-1.json

# ---- an OSD restarts mid-run: said, distrusted, nothing put back there -------
last=$(echo "$osds" | tail -1)
"$CCBENCH" rbd read --size 32M --osd-latency 20ms -d 30s -f json >r.json 2>r.err &
pid=$!
wait_for 60 "the OSDs delay (restart case)" set_now
"$top/scripts/minicluster.sh" osd-stop "$last" "$CLUSTER_DIR" >/dev/null 2>&1
"$top/scripts/minicluster.sh" osd-start "$last" "$CLUSTER_DIR" >/dev/null 2>&1
rc=0
wait $pid || rc=$?
wait_osds_up
[ $rc = 0 ] || [ $rc = 1 ] || fail "restart case: exit $rc: $(tail -5 r.err)"
jcheck r.json \
	'any("osd.'"$last"'" in t for t in d["latency_injection"]["lost"])' \
	'any(e["kind"] == "simulated" and e["severity"] == "distrust" for e in d["explain"])'
grep -q "osd.$last no longer delays (restarted since?)" r.err || fail "the undo did not say osd.$last restarted: $(cat r.err)"
[ "$(inject_state)" = "$clean" ] || fail "restart case: not clean after: $(inject_state)"

# ---- an OSD marked down and up again (not restarted): it keeps the values ----
# A loaded host does this by itself ("wrongly marked me down"): up_from
# changes, the process and its settings stay. Not "lost", and put back.
"$CCBENCH" rbd read --size 32M --osd-latency 20ms -d 25s -f json >m.json 2>m.err &
pid=$!
wait_for 60 "the OSDs delay (marked-down case)" set_now
up0=$(ceph_cli osd dump -f json | python3 -c 'import json,sys; print([o["up_from"] for o in json.load(sys.stdin)["osds"] if o["osd"] == '"$first"'][0])')
ceph_cli osd down "osd.$first" >/dev/null 2>&1
wait_osds_up
up1=$(ceph_cli osd dump -f json | python3 -c 'import json,sys; print([o["up_from"] for o in json.load(sys.stdin)["osds"] if o["osd"] == '"$first"'][0])')
[ "$up1" != "$up0" ] || fail "osd.$first: up_from did not change ($up0): not marked down?"
rc=0
wait $pid || rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || fail "marked-down case: exit $rc: $(tail -5 m.err)"
jcheck m.json '"lost" not in d["latency_injection"]'
[ "$(inject_state)" = "$clean" ] || fail "marked-down case: not put back (up_from $up0 -> $up1): $(inject_state)"

# ---- an injection already set (someone else's): refused, nothing set ---------
ceph_cli tell "osd.$first" config set ms_inject_delay_probability 1 >/dev/null
ceph_cli tell "osd.$first" config set ms_inject_delay_type client >/dev/null
busy=$(inject_state)
expect_rc 1 "$CCBENCH" rbd read --size 16M --osd-latency 5ms -q -f json >/dev/null 2>busy.err
grep -q "osd.$first already injects delays" busy.err || fail "not refused: $(cat busy.err)"
[ "$(inject_state)" = "$busy" ] || fail "the refusal changed the OSDs: $(inject_state)"
