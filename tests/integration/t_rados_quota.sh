# A pool over its quota, with the default --op-timeout (60 s): writes go
# with FULL_TRY, so once the osdmap flags the pool the OSD answers EDQUOT at
# once and the run ends within 10 s of the flag, with a clear reason, a
# partial result, and its objects removed (removal works on a full pool).
# Then librbd, which has no FULL_TRY: the engine's stall check reads the
# flag and stops the run within 10 s of it, says why on stderr, and leaves
# the temporary image whole (librbd cannot remove it from a full pool) with
# the command that removes it once the pool has room.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

qp=$POOL-quota
quota_pool "$qp" $((40 * 1048576))

# flag_time FILE: poll the osdmap until the pool is flagged full_quota and
# write the time (seconds since the epoch, fractional) into FILE.
flag_time() {
	for _ in $(seq 1 600); do
		if ceph_cli osd pool ls detail 2>/dev/null | grep "'$qp'" | gq full_quota; then
			date +%s.%N >"$1"
			return 0
		fi
		sleep 0.2
	done
}
is_flagged() { ceph_cli osd pool ls detail | grep "'$qp'" | gq full_quota; }
wait_unflagged() {
	for _ in $(seq 1 60); do is_flagged || return 0; sleep 1; done
	fail "pool $qp still flagged full_quota"
}

flag_time flag1 &
poller=$!
"$CCBENCH" rados write -p "$qp" -d 120s -b 4M -t 8 -f json >q.json 2>q.err || rc=$?
end=$(date +%s.%N)
wait $poller || true
cat q.err
[ "${rc:-0}" = 1 ] || fail "exit ${rc:-0}"
[ -s flag1 ] || fail "the pool was never flagged full_quota"
after=$(python3 -c "print(round($end - $(cat flag1), 1))")
echo "note: rados write ended $after s after the pool was flagged full_quota (--op-timeout 60 s)"
python3 -c "import sys; sys.exit(0 if $after <= 10 else 1)" || fail "ended $after s after the flag"
[ "$(jget q.json 'd["status"]')" = aborted ] || fail "status"
jget q.json 'd["reason"]' | gq "over its quota" || fail "reason: $(jget q.json 'd["reason"]')"
[ "$(jget q.json 'd["ops"] > 0')" = True ] || fail "no partial result"
grep -q "over its quota" q.err || fail "no message on stderr"
[ -z "$(ns_objects ccbench "$qp")" ] || fail "objects left in the full pool"

# Once the osdmap flags the pool full, a new write is refused at once. The
# run above removed its objects, so fill the pool by hand and keep it full.
head -c $((48 * 1048576)) /dev/urandom >filler
rados -p "$qp" put filler filler
for _ in $(seq 1 30); do is_flagged && break; sleep 1; done
timed "$CCBENCH" rados write -p "$qp" -d 5s -q
[ "$RC" = 1 ] && [ "$ELAPSED" -le 3 ] || fail "write to a full pool: exit $RC after $ELAPSED s"
rados -p "$qp" rm filler --force-full
wait_unflagged

# librbd: the stall check.
rm -f flag2
flag_time flag2 &
poller=$!
rc=0
"$CCBENCH" rbd write -p "$qp" --size 1G --io-size 4M -t 8 -d 120s --op-timeout 20s -f json \
	>r.json 2>r.err &
pid=$!
# The stop message appears within 10 s of the flag.
for _ in $(seq 1 300); do
	grep -q 'stopping' r.err && break
	sleep 0.2
done
said=$(date +%s.%N)
wait $pid || rc=$?
wait $poller || true
cat r.err
[ "$rc" = 1 ] || fail "rbd write exit $rc"
[ -s flag2 ] || fail "the pool was never flagged full_quota (rbd)"
grep -q 'over its quota.*stopping' r.err || fail "no stop message"
after=$(python3 -c "print(round($said - $(cat flag2), 1))")
echo "note: rbd write said why $after s after the pool was flagged full_quota"
python3 -c "import sys; sys.exit(0 if $after <= 10 else 1)" || fail "said why $after s after the flag"
jget r.json 'd["reason"]' | gq "over its quota" || fail "rbd reason: $(jget r.json 'd["reason"]')"
img=$(jget r.json 'd["layout"]["image"]')
grep -q "remove it with: rbd rm $qp/$img (or ccbench restore, from its record)" r.err ||
	fail "no removal command for the image: $(cat r.err)"
ceph_cli osd pool set-quota "$qp" max_bytes 0 >/dev/null
wait_unflagged
# The failed removal's record stays: restore removes the image from it.
"$CCBENCH" restore >rs.out 2>&1 || fail "restore after lifting the quota: $(cat rs.out)"
grep -q "removed the temporary image $qp/$img" rs.out || fail "restore said: $(cat rs.out)"
