# --until-steady on every path, and its bad input (about 1 min).
# 1. Bad input exits 2 at once against a monitor nobody answers (a
#    connect attempt would take the connect timeout): nothing is sent.
# 2. Each workload (rados write, rbd read, krbd read, fs write, fs read)
#    with bw:100%/2s, bounded far later. Two positive per-second samples
#    always lie within 100 % of their mean, so every run must stop right
#    after its ramp and one 2 s window: the rule, not the machine, sets
#    when. The result says when and what held, its window's samples meet
#    the criterion when checked here, the run lasted at least its ramp
#    and window, and explain says "steady after".
# 3. A run whose own end comes less than a window after steady state reads
#    on to it: its whole figure is its level (steady_state.read_to_end).
# 4. A run bounded before its ramp and window are over says it never got
#    steady (and why), and explain says its figure is not a level.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

printf '[global]\nmon host = 127.0.0.1:1\n' >dead.conf
dead() { env -u CEPH_CONF -u CEPH_ARGS "$CCBENCH" -c dead.conf --connect-timeout 20s "$@"; }
check() { expect_refused --within 3 --one "$1" dead "${@:2}"; }

echo "== bad input"
check "until-steady 'bw:0%': TOL '0%': out of range (0.1% to 100%)" rados write -p x --until-steady bw:0%
check "TOL '101%': out of range" rbd read --until-steady 101%
check "METRIC 'bandwidth'" rbd read --until-steady bandwidth:5%
check "WINDOW '1s': out of range (2s to 1h)" krbd read --until-steady 5%/1s
check "WINDOW '2500ms': whole seconds" fs write --until-steady 5%/2500ms
check "TOL 'nan'" rados write -p x --until-steady bw:nan
check "until-steady '': empty" rados write -p x --until-steady ''
check "steady-ramp: only with --until-steady" rbd read --steady-ramp 2s
check "steady-ramp '2h'" rbd read --until-steady 5% --steady-ramp 2h
check "not for fs meta" fs meta --until-steady 5%
check "not with --group" rados write -p x --until-steady 5% --group g --members 2
check "until-steady: not an option of this command" sweep /dev/null --until-steady 5%
check "repeat-until '101%'" sweep /dev/null --repeat-until 101%
check "repeat-until 'most'" sweep /dev/null --repeat-until most
printf '{"command": "rbd read", "params": {"until-steady": "bw:5%%/1s"}, "matrix": {"readahead": ["1M"]}}' >b1.json
check "until-steady 'bw:5%/1s'" sweep b1.json --dry-run
printf '{"command": "rbd read", "repeat": 3, "repeat_until": "lots", "matrix": {"readahead": ["1M"]}}' >b2.json
check "'repeat_until' must be a percentage" sweep b2.json --dry-run
printf '{"command": "fs meta", "params": {"until-steady": "5%%"}, "matrix": {"clients": [1]}}' >b3.json
check "not for fs meta" sweep b3.json --dry-run

# steady RESULT MAX_SECONDS: the run stopped on its steady state, after
# its ramp and window and well before MAX_SECONDS; what it recorded holds.
steady() {
	jcheck "$1" 'd["status"] == "ok"' \
		'd["steady_state"]["attained"] is True' \
		'd["reason"].startswith("steady state (--until-steady bw:100%/2s)") or (d["steady_state"]["read_to_end"] is True and d["steady_state"]["end_was_s"] < 2)' \
		'd["steady_state"]["window_s"] == 2 and len(d["steady_state"]["window"]["values"]) == 2' \
		'all(abs(v - d["steady_state"]["window"]["mean"]) <= d["steady_state"]["window"]["mean"] for v in d["steady_state"]["window"]["values"])' \
		'd["steady_state"]["ramp"]["over_at_s"] >= d["steady_state"]["ramp"]["min_s"]' \
		'd["steady_state"]["at_s"] >= d["steady_state"]["ramp"]["over_at_s"] + 2 - 0.2' \
		'd["seconds"] >= d["steady_state"]["at_s"] - 0.2' \
		"d['seconds'] < $2" \
		'any(e["kind"] == "steady" and e["text"].startswith("steady after") for e in d["explain"])'
	"$CCBENCH" explain "$1" | gq "steady after" || fail "$1: explain says nothing of it"
}

echo "== every path stops on its steady state"
"$CCBENCH" rados write -p "$POOL" -b 1M -t 4 --until-steady bw:100%/2s -q -f json >rados.json
steady rados.json 30 # the bound: 60 s (no --duration, --total or pass)
jcheck rados.json 'd["steady_state"]["ramp"]["bytes"] == 0' \
	'd["steady_state"]["ramp"]["basis"] is None'
# librbd at 2 ms a read and a small readahead: the 512M pass lasts far
# longer than ramp and window (about 10 s at 50 MiB/s).
"$CCBENCH" rbd read --size 512M --io-size 64K --sim-osd-latency 2ms --readahead 128K \
	--until-steady bw:100%/2s -q -f json >rbd.json
steady rbd.json 30
# The automatic ramp: twice the larger of readahead (128K) and object (4M).
jcheck rbd.json 'd["steady_state"]["ramp"]["bytes"] == (8 << 20) + 10 * 65536' \
	'd["steady_state"]["ramp"]["basis"] == "10 × 64K reads before readahead starts + 2 × object size 4M"' \
	'd["steady_state"]["ramp"]["auto"] is True' 'd["bytes"] < 512 << 20'
"$CCBENCH" krbd read --size 64M --duration 40s --read-ahead-kb 16384 --until-steady bw:100%/2s \
	-q -f json >krbd.json
steady krbd.json 30
jcheck krbd.json 'd["steady_state"]["ramp"]["bytes"] == 32 << 20' \
	'd["steady_state"]["ramp"]["basis"] == "2 × read_ahead_kb 16M"'
assert_unmapped
# fs: the given ramp, and the read's own.
# 4K writes without the object cacher (each one a round trip: about 11
# MiB/s here), so that the file outlasts the ramp and window whatever the
# machine (512M in 4K blocks went into the cacher at 340 MiB/s: 1.5 s).
"$CCBENCH" fs write --file-size 2G --block-size 4K -o client_oc=false --until-steady bw:100%/2s \
	--steady-ramp 1s -q -f json >fsw.json
steady fsw.json 60
jcheck fsw.json 'd["steady_state"]["ramp"]["auto"] is False' \
	'd["steady_state"]["ramp"]["basis"] == "--steady-ramp"' 'd["bytes"] < 2 << 30'
"$CCBENCH" fs read --file-size 512M --block-size 4M --until-steady bw:100%/2s -q -f json >fsr.json
jcheck fsr.json 'd["status"] == "ok"' \
	'd["steady_state"]["ramp"]["basis"] == "2 × readahead 16M"'
# A 512M file may be read before the ramp and window are over: either
# outcome is said.
jcheck fsr.json 'd["steady_state"]["attained"] is True or "why" in d["steady_state"]'

echo "== steady with the run's own end under a window away: it reads on"
# Ramp 1 s, window 2 s: steady at about 3 s, and -d 4s ends it a second
# later, whatever the machine's speed. Stopping would save that second and
# report a level without the ramp that a full-length run reports.
"$CCBENCH" rados write -p "$POOL" -b 1M -t 4 -d 4s --until-steady bw:100%/2s -q -f json >tail.json
jcheck tail.json 'd["status"] == "ok"' 'd["reason"] == "--duration reached"' \
	'd["steady_state"]["attained"] is True' 'd["steady_state"]["read_to_end"] is True' \
	'0 <= d["steady_state"]["end_was_s"] < 2' 'd["seconds"] >= 3.8' \
	'any(e["kind"] == "steady" and "read on to it" in e["text"] for e in d["explain"])'
"$CCBENCH" report tail.json | gq "read on to it" || fail "report: $("$CCBENCH" report tail.json)"
jcheck rados.json 'd["steady_state"]["read_to_end"] is False'

echo "== a run bounded before it could settle says so"
"$CCBENCH" rados write -p "$POOL" -b 1M -t 4 -d 2s --until-steady bw:10%/5s -q -f json >short.json
jcheck short.json 'd["status"] == "ok"' 'd["reason"] == "--duration reached"' \
	'd["steady_state"]["attained"] is False' 'd["steady_state"]["at_s"] is None' \
	'"--duration reached" in d["steady_state"]["why"]' \
	'any(e["kind"] == "steady" and e["severity"] == "warn" and "not steady after" in e["text"] for e in d["explain"])'
"$CCBENCH" explain short.json | gq "not steady after 2 s.*not a level" ||
	fail "explain: $("$CCBENCH" explain short.json)"
