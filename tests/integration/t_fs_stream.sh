# fs write then fs read through libcephfs, with 1 and 2 clients: the files
# get the requested layout (read back by ccbench and, independently, through
# the ceph.file.layout xattr on a ceph-fuse mount), the byte counts are the
# file sizes, and the run's directory is gone afterwards unless --keep.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs_lib.sh"

MIB=1048576
layout=(--object-size 1M --stripe-unit 256K --stripe-count 2)

for n in 1 2; do
	d=/ccbt-stream-$n
	"$CCBENCH" fs write -q --clients $n --file-size 8M --block-size 1M "${layout[@]}" \
		--dir $d --keep -f json >w$n.json || fail "write $n clients"
	jcheck w$n.json 'd["status"] == "ok"' 'd["path"] == "cephfs"' \
		"d['bytes'] == $n * 8 * $MIB" "d['ops'] == $n * 8" 'd["queue_depth"] == 1' \
		'd["layout"]["fsync_in_time"] is True' \
		'[d["layout"]["file_layout"][k] for k in ("object_size", "stripe_unit", "stripe_count")] == [1048576, 262144, 2]'
	for c in $(seq 0 $((n - 1))); do
		[ "$(stat -c %s "$FSMNT$d/client-$c")" = $((8 * MIB)) ] || fail "size of client-$c"
		lay=$(fs_layout $d/client-$c)
		case "$lay" in
		*"stripe_unit=262144 stripe_count=2 object_size=1048576"*) ;;
		*) fail "xattr layout of client-$c: $lay" ;;
		esac
	done
	if [ $n = 2 ]; then
		jcheck w$n.json 'len(d["clients"]) == 2' \
			'abs(sum(d["layout"]["client_share"]) - 1) < 1e-6' \
			'0 < d["layout"]["fairness_jain"] <= 1'
	fi

	# The reads come from the files of the write, on fresh mounts.
	"$CCBENCH" fs read -q --clients $n --dir $d --block-size 1M -f json >r$n.json ||
		fail "read $n clients"
	jcheck r$n.json 'd["status"] == "ok"' "d['bytes'] == $n * 8 * $MIB" \
		'd["layout"]["fresh_mount_per_reader"] is True' \
		'd["layout"]["file_layout"]["stripe_count"] == 2'
	# A read of someone's directory leaves it alone.
	[ -f "$FSMNT$d/client-0" ] || fail "read removed the files it was given"
	rm -rf "${FSMNT:?}$d"
done

# Default directory, not kept: gone after the write and after a read that
# writes its own files first (prefill).
"$CCBENCH" fs write -q --clients 2 --file-size 4M -f json >w.json || fail "write default dir"
jcheck w.json 'd["layout"]["dir"].startswith("/ccbench-")' 'd["layout"]["dir_created"]' 
[ -z "$(fs_root_ccbench)" ] || fail "write left $(fs_root_ccbench)"
"$CCBENCH" fs read -q --clients 2 --file-size 4M --block-size 64K -f json >r.json 2>r.err ||
	fail "read with prefill"
jcheck r.json 'd["ops"] == 2 * 64' 'd["status"] == "ok"' 
[ -z "$(fs_root_ccbench)" ] || fail "read left $(fs_root_ccbench)"

# -d instead of the file size: the last op is write + fsync, status ok.
"$CCBENCH" fs write -q -d 2s --file-size 4M -f json >d.json || fail "write -d"
jcheck d.json 'd["status"] == "ok"' 'd["seconds"] >= 2' 
[ -z "$(fs_root_ccbench)" ] || fail "-d left $(fs_root_ccbench)"

# An existing directory is refused without --reuse; with it, only the
# run's own files go and the directory and other files stay.
mkdir "$FSMNT/ccbt-mine"
echo keep >"$FSMNT/ccbt-mine/other"
expect_rc 2 "$CCBENCH" fs write -q --file-size 4M --dir /ccbt-mine
"$CCBENCH" fs write -q --file-size 4M --dir /ccbt-mine --reuse >/dev/null || fail "--reuse"
[ "$(ls "$FSMNT/ccbt-mine")" = other ] || fail "--reuse left: $(ls "$FSMNT/ccbt-mine")"
rm -rf "${FSMNT:?}/ccbt-mine"

# Ctrl-C and SIGTERM: drained, partial result, directory removed.
for sig in INT TERM; do
	"$CCBENCH" fs write --clients 2 --file-size 4G --block-size 4M -f json >s.json 2>s.err &
	pid=$!
	wait_grep s.err "sec"
	sleep 1
	signal_wait $pid $sig "$([ $sig = INT ] && echo 130 || echo 143)" 30 s.err
	jcheck s.json 'd["status"] == "interrupted"' 'd["bytes"] > 0' 
	[ -z "$(fs_root_ccbench)" ] || fail "SIG$sig left $(fs_root_ccbench)"
done
echo "fs stream: ok"
