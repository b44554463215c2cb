# The state directory and its records are trusted only as far as nobody
# else could have written them (issue 31, findings 5 and 8a):
# - a state directory that is group-writable, a symlink, or owned by
#   nobody: every command (a run, restore) is refused, exit 2, one message
#   naming it, nothing done on the cluster;
# - a FIFO (and a symlink) named like a record: a run and `restore` do not
#   hang on it (bounded by timeout), they say they skipped it;
# - the command a record stores, locally and in its copy on the cluster,
#   shows <redacted> instead of a key given with -o key=...
# - records of runs that may be alive (another PID namespace, another host)
#   are left and named; a malformed copy on the cluster is named and left.
# About 20 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# ---- a state directory another user could write: refused before the cluster ---
mkdir -m 0770 gw
ln -s "$CCB_STATE_DIR" ln
mkdir -m 0700 nob
chown nobody nob
for d in gw ln nob; do
	case $d in
	gw) why="writable by its group" ;;
	ln) why="a symbolic link" ;;
	nob) why="owned by uid $(id -u nobody)" ;;
	esac
	CCB_STATE_DIR=$PWD/$d expect_refused --one "state directory $PWD/$d: $why" \
		"$CCBENCH" rados write -p "$POOL" -d 1s -b 64K --run-name st-$d
	[ -z "$(ns_objects)" ] || fail "a refused run ($d) wrote objects: $(ns_objects | head -3)"
	CCB_STATE_DIR=$PWD/$d expect_refused --one "state directory $PWD/$d: $why" "$CCBENCH" restore
done
rm -rf gw ln nob

# ---- a FIFO named like a record: skipped, never waited on ----------------------
mkfifo -m 0600 "$CCB_STATE_DIR/run-1-1.json"
ln -s /etc/passwd "$CCB_STATE_DIR/run-2-2.json"
rc=0
timeout 30 "$CCBENCH" rados write -p "$POOL" -d 1s -b 64K -q -f json >f.json 2>f.err || rc=$?
[ $rc = 0 ] || fail "a run beside a FIFO record: exit $rc (124: it hung): $(cat f.err)"
grep -q "run-1-1.json: not a regular file; skipped" f.err || fail "the FIFO not named: $(cat f.err)"
grep -q "run-2-2.json: a symbolic link; skipped" f.err || fail "the symlink not named: $(cat f.err)"
rc=0
timeout 30 "$CCBENCH" restore >fr.out 2>fr.err || rc=$?
[ $rc = 0 ] || fail "restore beside a FIFO record: exit $rc (124: it hung): $(cat fr.out fr.err)"
grep -q "run-1-1.json: not a regular file; skipped" fr.err || fail "restore: the FIFO not named: $(cat fr.err)"
[ -p "$CCB_STATE_DIR/run-1-1.json" ] || fail "restore removed the FIFO"
rm -f "$CCB_STATE_DIR/run-1-1.json" "$CCB_STATE_DIR/run-2-2.json"

# ---- the stored command is redacted, here and on the cluster -------------------
KEY=$(ceph_cli auth get-key client.admin)
"$CCBENCH" rbd read --size 16M -d 4s -o "key=$KEY" -q -f json >k.json 2>k.err &
pid=$!
recorded() { grep -ls '"kind": "rbd_image"' "$CCB_STATE_DIR"/run-*.json >/dev/null; }
wait_for 30 "the temporary image's record" recorded
cp "$CCB_STATE_DIR"/run-*.json k.state
ckey=$(jget k.state 'd["entries"][0]["cluster_key"]')
ceph_cli config-key get "$ckey" >k.cluster 2>/dev/null || fail "no copy of the record on the cluster ($ckey)"
wait $pid || fail "the run with -o key= failed: $(cat k.err)"
for f in k.state k.cluster; do
	! grep -qF "$KEY" $f || fail "$f holds the key"
	grep -qF "key=<redacted>" $f || fail "$f does not show the command redacted: $(cat $f)"
done
jcheck k.state 'd["boot_id"] and d["pid_ns"].startswith("pid:[")'
! ceph_cli config-key exists "$ckey" >/dev/null 2>&1 || fail "the copy on the cluster outlived the run"
[ -z "$(ls "$CCB_STATE_DIR"/run-*.json 2>/dev/null)" ] || fail "state file left"

# ---- runs that may be alive elsewhere are left ---------------------------------
# A record of another PID namespace on this boot (its pid means nothing
# here): restore leaves it and says so; --force acts on it.
boot=$(cat /proc/sys/kernel/random/boot_id)
cat >"$CCB_STATE_DIR/run-1-1-ns.json" <<EOF2
{"ccbench_state": 2, "pid": 2147483646, "starttime": 1, "boot_id": "$boot", "pid_ns": "pid:[1]",
 "host": "$(hostname)", "command": "ccbench krbd read",
 "entries": [{"kind": "read_ahead_kb", "disk": "nosuchdisk", "original": 128, "set": 4096,
              "what": "put read_ahead_kb back"}]}
EOF2
chmod 600 "$CCB_STATE_DIR/run-1-1-ns.json"
"$CCBENCH" restore >ns.out 2>ns.err || fail "restore beside another namespace's record: exit $?: $(cat ns.out ns.err)"
grep -q "a run in another PID namespace (pid 2147483646) may still be running; nothing touched" ns.out ||
	fail "restore said: $(cat ns.out ns.err)"
[ -f "$CCB_STATE_DIR/run-1-1-ns.json" ] || fail "restore removed another namespace's record"
"$CCBENCH" restore --force >nf.out 2>nf.err || fail "restore --force: exit $?: $(cat nf.out nf.err)"
grep -q "restored (run pid 2147483646): nosuchdisk: device gone" nf.out || fail "restore --force did not act on it: $(cat nf.out nf.err)"
[ ! -e "$CCB_STATE_DIR/run-1-1-ns.json" ] || fail "restore --force left the record"

# On the cluster: a copy of a run on another host is left; one of the
# wrong shape is named and left; neither is touched.
fsid=$(ceph_cli fsid)
other="ccbench/run/$boot/7-7-1"
bad="ccbench/run/$boot/8-8-1"
ceph_cli config-key set "$other" "{\"ccbench_cluster_record\": 1, \"run\": {\"host\": \"elsewhere\", \"boot_id\": \"$boot\", \"pid_ns\": \"pid:[1]\", \"pid\": 7, \"starttime\": 7}, \"record\": {\"kind\": \"rbd_image\", \"fsid\": \"$fsid\", \"pool\": \"rbd\", \"image\": \"ccbench-x\", \"id\": \"abc\", \"entity\": \"client.admin\"}}" >/dev/null
ceph_cli config-key set "$bad" '{"ccbench_cluster_record": 1, "run": {}, "record": {"kind": "loop"}}' >/dev/null
rc=0
"$CCBENCH" restore -c "$CEPH_CONF" >cr.out 2>cr.err || rc=$?
ceph_cli config-key rm "$other" >/dev/null 2>&1 || fail "restore -c removed another host's record: $(cat cr.out cr.err)"
ceph_cli config-key rm "$bad" >/dev/null 2>&1 || fail "restore -c removed a malformed record: $(cat cr.out cr.err)"
grep -q "left: config-key $other: a run on another host (pid 7 on elsewhere)" cr.out || fail "restore -c said: $(cat cr.out cr.err)"
grep -q "config-key $bad: its run is not host, boot_id, pid_ns, pid, starttime; nothing touched" cr.err ||
	fail "restore -c on a malformed record said: $(cat cr.out cr.err)"
[ $rc != 0 ] || fail "restore -c with a malformed record: exit 0"
