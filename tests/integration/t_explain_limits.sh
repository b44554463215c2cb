# What limited a run, said under it (issue 13), on runs made to be limited:
# a healthy 4M x 16 read says none of the warnings; 8 clients x 32 writes
# on this small host say client CPU; a loop device read whose pages another
# process holds says cache; a run through an OSD stopped and restarted
# says it stalled and names the OSD. Each result carries the cluster's
# state at start and end. No speed is asserted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"
mc=$(cd "$(dirname "$0")/../.." && pwd)/scripts/minicluster.sh

kinds() { jget "$1" '";".join(e["kind"] + ":" + e["severity"] for e in d["explain"])'; }
whys() { jget "$1" '"\n".join(e["kind"] + " " + e["severity"] + ": " + e["text"] for e in d["explain"])'; }

# A healthy read: 4M x 16 over 64 objects of a kept write run (memstore
# OSDs keep what is written in memory: every write here is bounded).
"$CCBENCH" rados write -p "$POOL" -b 4M -t 16 --max-objects 64 --run-name hr --no-cleanup -q >/dev/null
drop_hr() { "$CCBENCH" cleanup -p "$POOL" --run-name hr -q >/dev/null 2>&1 || true; }
on_exit drop_hr
"$CCBENCH" rados rand -p "$POOL" -t 16 --run-name hr -d 4s -q -f json >hr.json
echo "healthy read: $(kinds hr.json)"
whys hr.json
python3 - hr.json <<'PY' || fail "a healthy read said a limit"
import json, sys
d = json.load(open(sys.argv[1]))
# On this 2-core host the OSDs share the client's CPUs: a fast read can
# saturate both, and a client that then fell behind gets a true client-cpu
# warning (seen: host 90.3 % busy, 11.4 of 16 in flight). Such a warning
# must carry figures that meet its own rule; any other is a false limit.
def cpu_warn_holds(e):
    f = e.get("figures", {})
    return (f.get("host_busy_share", 0) >= 0.90 and f.get("own_share", 1) < 0.85
            and f.get("mean_in_flight", 16) < 0.85 * 16)
bad = [e for e in d["explain"]
       if (e["kind"] == "littles-law" and e["severity"] != "info")
       or (e["kind"] == "client-cpu" and e["severity"] != "info" and not cpu_warn_holds(e))
       or e["kind"] in ("cache", "stall")
       or (e["kind"] == "cluster" and e["severity"] != "info")]
assert not bad, bad
for e in d["explain"]:
    if e["kind"] == "client-cpu" and e["severity"] != "info":
        print("    note: the host was saturated:", e["text"])
# The state it ran in, at both ends, and the route to the cluster.
for when in ("start", "end"):
    s = d["cluster_state"][when]
    assert s["health"].startswith("HEALTH_"), s
    assert s["osds"] == 3 and s["osds_down"] == [], s
assert d["network"] and all(p["loopback"] for p in d["network"]), d["network"]
assert len(d["thread_cpu"]["clients"]) == 1, d["thread_cpu"]
PY
jget hr.json '[e["text"] for e in d["explain"] if e["kind"] == "network"][0]' |
	grep -q "no link limits the run" || fail "no network line for loopback"

# 8 clients x 32 of 4M on this host: the client's CPU (the process's, one of
# its threads', or the host's with the OSDs beside it) is the limit. With
# zero-copy writes ccbench itself takes ~10 % of this 2-core host; the host
# is saturated by the OSDs beside it, which is what the entry says (info
# when the client kept its ops in flight, warn when it could not).
"$CCBENCH" rados write -p "$POOL" --clients 8 -t 32 -d 4s --total 2G -q -f json >cpu.json
echo "8 x 32 write: $(kinds cpu.json)"
whys cpu.json
[ "$(jget cpu.json 'len(d["thread_cpu"]["clients"])')" = 8 ] || fail "not 8 client threads' CPU"
# The rule: the host's CPUs at least 90 % busy (or ccbench's own share at
# least 85 %) gives a client-cpu entry. With other lanes beside it the OSDs
# can stall instead (CI of stop 37: 84 % busy, 5 s with no completion):
# then the host rule is not due, and a warning (a stall, Little's law, one
# thread's CPU) must say what held the run.
busy=$(jget cpu.json 'd["thread_cpu"]["host_busy_share"]')
own=$(jget cpu.json '(d["client_cpu"]["user_s"] + d["client_cpu"]["sys_s"]) / d["client_cpu"]["wall_s"] / d["client_cpu"]["online_cpus"]')
if python3 -c "import sys; sys.exit(not ($busy >= 0.90 or $own >= 0.85))"; then
	kinds cpu.json | gq "client-cpu:" || fail "host $busy busy, own $own: no client-cpu entry: $(jget cpu.json 'd["client_cpu"], d["thread_cpu"]')"
	"$CCBENCH" explain cpu.json | gq "^why .*CPU" || fail "explain: no CPU line"
else
	kinds cpu.json | grep -Eq "stall:warn|littles-law:warn|client-cpu:warn" ||
		fail "host only $busy busy and no warning (stall, littles-law, a thread's CPU) says what held the run"
	echo "    note: host $busy busy (under 0.90): not CPU-bound this time; $(kinds cpu.json)"
fi

# A loop device whose pages another process holds mapped: the drop cannot
# empty them, the read comes from memory, and the result says so.
file_loop 32
kill_hold() { kill "${HOLD_PID:-}" 2>/dev/null || true; }
on_exit kill_hold
hold_pages "$LOOP"
"$CCBENCH" krbd read --device "$LOOP" -q -f json >cache.json
kill "$HOLD_PID"
echo "held loop read: $(kinds cache.json)"
kinds cache.json | gq "cache:distrust" || fail "no cache entry: $(whys cache.json)"
! jget cache.json '"cluster_state" in d' | gq True || fail "krbd --device has no cluster connection"

# An OSD stopped mid-run (pool size 1: its PGs have no other copy), and
# started again before it is marked out: the reads stop until it is back.
"$CCBENCH" rados rand -p "$POOL" -t 16 --run-name hr -d 15s --op-timeout 30s -f json >down.json 2>down.err &
pid=$!
sleep 3
"$mc" osd-stop 1 "$CLUSTER_DIR" >/dev/null 2>&1
osd_restart() { "$mc" osd-start 1 "$CLUSTER_DIR" >/dev/null 2>&1 || true; }
on_exit osd_restart
# The stall check asks after 2 s without a completion.
poll 20 grep -q "osd.1 down" down.err || true
osd_restart
wait $pid || fail "the run failed: $(tail -3 down.err)"
wait_osds_up
echo "OSD stopped: $(kinds down.json)"
whys down.json
jget down.json '[e["text"] for e in d["explain"] if e["kind"] == "stall"][0]' |
	grep -q "osd.1 down" || fail "the stall does not name osd.1: $(whys down.json)"
jget down.json 'd["stall_diagnosis"][0]["why"]' | gq "osd.1 down" || fail "no stall_diagnosis"
"$CCBENCH" explain down.json | gq "^why .*warning: .*osd.1 down" || fail "explain: no osd.1 line"
expect_rc 0 "$CCBENCH" cleanup -p "$POOL" --run-name hr -q
# Leave the cluster clean for the tests after this one.
poll 60 eval '[ "$(ceph_cli pg stat -f json | python3 -c "import json,sys; d=json.load(sys.stdin); m=d.get(\"pg_summary\", d); print(sum(s[\"num\"] for s in m[\"num_pg_by_state\"] if s[\"name\"] != \"active+clean\"))")" = 0 ]' ||
	fail "PGs not active+clean after the OSD came back"
