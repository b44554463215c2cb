# The guest half of runner.sh: runs inside the krbd-vm guest
# (run-in-guest.sh --share SPOOL), with the host's ccbench ($CCBENCH) and
# the cluster's conf. It serves the point commands the host drops into
# the shared spool directory, one at a time, until the host asks it to
# stop.
#
# usage: guest-serve.sh SPOOL
#
# Protocol (every file is written under a dot name, then renamed, so the
# other side never reads half of one):
#   host  SPOOL/req-ID       ccbench's arguments, NUL-separated
#   guest SPOOL/run-ID       the request, claimed (renamed from req-ID)
#   guest SPOOL/out-ID.json  its stdout (the -f json result)
#   guest SPOOL/err-ID.txt   its stderr
#   guest SPOOL/done-ID      its exit status, written last
#   host  SPOOL/cancel-ID    stop that run (ccbench gets SIGINT and unwinds)
#   host  SPOOL/stop         end the loop; the guest then powers off
#   guest SPOOL/ready        written once, when the loop starts
#   guest SPOOL/guest.log    what the loop did, a line per event
set -uo pipefail
spool=$1
[ -d "$spool" ] || {
	echo "guest-serve: $spool: no such directory" >&2
	exit 125
}
log() { echo "$(date +%T) $*" >>"$spool/guest.log"; }
# Sleep without a fork (each is costly under TCG): a read that times out
# on a fifo of our own, which nobody writes to.
fifo=/tmp/guest-serve.$$
mkfifo "$fifo" && exec 9<>"$fifo" && rm -f "$fifo"
nap() { read -r -t "$1" -u 9 _ || true; }

log "serving (kernel $(uname -r), $(nproc) CPUs, ccbench $CCBENCH)"
: >"$spool/.ready" && mv "$spool/.ready" "$spool/ready"
while [ ! -e "$spool/stop" ]; do
	req=
	for f in "$spool"/req-*; do
		[ -e "$f" ] && req=$f && break
	done
	if [ -z "$req" ]; then
		nap 0.2
		continue
	fi
	id=${req##*/req-}
	mv "$req" "$spool/run-$id" || continue
	mapfile -d '' -t args <"$spool/run-$id"
	log "run $id: ${args[*]}"
	"$CCBENCH" "${args[@]}" >"$spool/.out-$id" 2>"$spool/.err-$id" &
	pid=$!
	cancelled=
	while kill -0 "$pid" 2>/dev/null; do
		if [ -z "$cancelled" ] && { [ -e "$spool/cancel-$id" ] || [ -e "$spool/stop" ]; }; then
			log "run $id: cancelled, SIGINT to ccbench"
			kill -INT "$pid"
			cancelled=1
		fi
		nap 0.2
	done
	wait "$pid"
	rc=$?
	mv "$spool/.out-$id" "$spool/out-$id.json"
	mv "$spool/.err-$id" "$spool/err-$id.txt"
	echo "$rc" >"$spool/.done-$id" && mv "$spool/.done-$id" "$spool/done-$id"
	rm -f "$spool/run-$id"
	log "run $id: exit $rc"
done
log "stop"
exit 0
