# Removals on a full cluster, as an operator meets it (issue 42): a pool
# over its quota, so the osdmap flags it full, where plain removals wait
# (a `group rm` of 18 objects once took over 5 minutes, each object its
# own 60 s). Every removal ccbench makes goes with FULL_TRY, and each
# command has one bound (--op-timeout) and ends with the cluster's reason
# and what was left:
# 1. `group rm` of a group's 18 objects: all removed, within 5 s.
# 2. `cleanup --run-name` of a run kept with --no-cleanup: removed, within 5 s.
# 3. `restore` of a killed rbd run's temporary image: librbd cannot remove
#    an image from a full pool, so restore keeps it at once with the reason
#    ("over its quota") instead of waiting; once the pool has room, restore
#    removes it.
# Checked that it fails: FULL_TRY taken out of the group's removals, group rm
# waited out its one bound (20 s) with 19 objects left. About 20 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

qp=$POOL-quota
quota_pool "$qp" 0
is_flagged() { ceph_cli osd pool ls detail | grep "'$qp'" | gq full_quota; }

# Before the pool is full: a group's objects (17 members' results and the
# group object), a kept run, and a temporary image whose run was killed.
echo r >small
for i in $(seq 17); do rados -p "$qp" -N ccbench-groups put "full.result.m$i" small; done
rados -p "$qp" -N ccbench-groups put full small
"$CCBENCH" rados write -p "$qp" -d 2s -b 64K -t 4 --no-cleanup --run-name keep -q >/dev/null
"$CCBENCH" rbd write -p "$qp" --size 16M -d 60s -q >rbd.out 2>rbd.err &
pid=$!
wait_for 60 "the rbd run's crash record" eval 'grep -qs "\"rbd_image\"" "$CCB_STATE_DIR"/run-*.json'
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
image=$(rbd ls "$qp" | head -1)
[ -n "$image" ] || fail "no temporary image in $qp"

# A quota under what the pool holds already: flagged full once the mon
# has the pool's figures, with nothing more written (a write past the
# quota would wait for room, and how much the run above wrote depends on
# the machine's speed).
ceph_cli osd pool set-quota "$qp" max_bytes 1 >/dev/null
wait_for 30 "pool $qp flagged full_quota" is_flagged

echo "== 1. group rm on the full pool"
timed "$CCBENCH" group rm full -p "$qp" --op-timeout 20s
[ "$RC" = 0 ] && [ "$ELAPSED" -le 5 ] || fail "group rm: exit $RC after $ELAPSED s"
[ -z "$(rados -p "$qp" -N ccbench-groups ls)" ] || fail "group objects left"
echo "note: group rm of 18 objects on a pool over its quota: $ELAPSED s"

echo "== 2. cleanup on the full pool"
timed "$CCBENCH" cleanup -p "$qp" --run-name keep --op-timeout 20s
[ "$RC" = 0 ] && [ "$ELAPSED" -le 5 ] || fail "cleanup: exit $RC after $ELAPSED s"
[ -z "$(rados -p "$qp" -N ccbench ls)" ] || fail "run objects left"

echo "== 3. restore of a temporary image on the full pool"
timed "$CCBENCH" restore --op-timeout 20s >restore.out 2>restore.err
[ "$RC" = 1 ] && [ "$ELAPSED" -le 10 ] || fail "restore: exit $RC after $ELAPSED s: $(cat restore.out restore.err)"
grep -q "over its quota.*librbd cannot remove an image until the pool has room (kept" restore.err ||
	fail "restore did not say why: $(cat restore.out restore.err)"
rbd ls "$qp" | gq -x "$image" || fail "the image went"
echo "note: restore kept the image on the full pool in $ELAPSED s: $(head -c 200 restore.err)"
ceph_cli osd pool set-quota "$qp" max_bytes 0 >/dev/null
wait_for 30 "pool $qp no longer full" eval '! is_flagged'
"$CCBENCH" restore >restore2.out 2>restore2.err || fail "restore with room: $(cat restore2.out restore2.err)"
rbd ls "$qp" | gq -x "$image" && fail "the image is still there"
true
