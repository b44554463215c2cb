# Every shipped config (configs/*.json) is checkable and runnable.
# 1. --dry-run against a dead monitor (the before-stop hook's DEAD.conf):
#    exit 0 at once, one grid line per point, the run count, the estimate.
# 2. Bad --param / --repeat exit 2 before any cluster is touched (same
#    dead conf: a connect attempt would hang until the connect timeout).
# 3. Each config end to end on the throwaway cluster, shrunk only with
#    --param / --repeat (a config that cannot be shrunk so is a defect):
#    exit 0, valid JSON, as many runs as the dry run said, every run ok,
#    nothing left behind.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
printf '[global]\nmon host = 127.0.0.1:1\n' >dead.conf
dead() { env -u CEPH_CONF -u CEPH_ARGS "$CCBENCH" -c dead.conf "$@"; }

# shrink CONFIG: the --param / --repeat arguments that make CONFIG small,
# one per line. Long axes keep their first two values.
shrink() {
	python3 - "$1" <<'PY'
import json, os, sys
c = json.load(open(sys.argv[1]))
args = ["--repeat", "1"]
def p(k, v): args.extend(["--param", "%s=%s" % (k, v)])
for axis, vals in c["matrix"].items():
    if len(vals) > 2:
        p(axis, json.dumps(vals[:2]))
# A pool axis (ec-vs-replicated): the harness's pools are named after the
# shipped ones in this test's pool, made below; no FastEC on every release.
pools = os.environ["POOL"]
for axis in ("data-pool", "pool"):
    vals = c["matrix"].get(axis, [])
    if any(v.startswith("ccb-") for v in vals):
        p(axis, json.dumps([pools + "-" + v[4:] for v in vals if "fast" not in v][:2]))
        p("fastec-pool", "")
        # One workload and size on two pools: t_ec_pools covers the rest.
        if "io-size" in c["matrix"]:
            p("io-size", "4K")
        if "command" in c["matrix"]:
            p("command", json.dumps(c["matrix"]["command"][:1]))
# The whole sweep's injected latency stays (it is exercised), small.
if "osd-latency" in c.get("params", {}):
    p("osd-latency", "1ms")
# A fault schedule (issue 42): its times a third as long (at least 1 s),
# its run bounded by the schedule's end, not shrunk to a second.
import re
faults = c["matrix"].get("fault") or ([c["params"]["fault"]] if "fault" in c.get("params", {}) else [])
def quicker(f):
    return re.sub(r"(^|;|\+)(\d+)s", lambda m: "%s%ds" % (m.group(1), max(1, int(m.group(2)) // 3) if int(m.group(2)) else 0), f)
if faults:
    p("fault", json.dumps([quicker(f) for f in faults[:2]]))
word = c["command"].split()[0]
if faults:
    p("op-size", "64K"); p("queue-depth", 4)
elif word in ("rbd", "krbd"):
    p("size", "64M"); p("duration", "1s")
elif word == "rados":
    p("duration", "1s"); p("op-size", "1M"); p("queue-depth", 4)
elif word == "fs":
    p("file-size", "64M"); p("block-size", "16M")
elif word == "capacity":
    # One search, short steps, a loose SLO: t_capacity_grid runs a grid.
    p("slo", json.dumps(["p99<=500ms"])); p("max-in-flight", "[4]")
    p("step-time", "1s"); p("precision", "25%"); p("max-steps", 6)
else:
    sys.exit("t_configs: no shrink rule for command '%s': add one" % c["command"])
print("\n".join(args))
PY
}

# host_args CONFIG: what keeps CONFIG to the clients this host has. Without
# the CephFS kernel client (this host's kernel has none; the krbd-vm guest's
# has), a config's mount-via=kernel points are refused (exit 2, checked
# below): dropped here, one --param.
have_kernel_fs() { grep -qw ceph /proc/filesystems || modinfo ceph >/dev/null 2>&1; }
host_args() {
	python3 - "$1" "$(have_kernel_fs && echo 1 || echo 0)" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))["matrix"].get("mount-via")
if v and "kernel" in v and sys.argv[2] == "0":
    print("--param")
    print("mount-via=" + json.dumps([x for x in v if x != "kernel"]))
PY
}

configs=("$top"/configs/*.json)
[ "${#configs[@]}" -ge 5 ] || fail "only ${#configs[@]} configs found in $top/configs"

echo "== dry runs against a dead monitor"
for c in "${configs[@]}"; do
	name=$(basename "$c" .json)
	mapfile -t hargs < <(host_args "$c")
	if [ "${#hargs[@]}" -gt 0 ]; then
		# A run is refused before it starts; a dry run plans (perhaps for
		# another host) and says what this one lacks.
		expect_refused --within 5 "mount-via=kernel.*has no CephFS client" dead sweep "$c"
		dead sweep "$c" --dry-run >"dry-host-$name.txt" 2>&1 || fail "$name: --dry-run exit $?"
		grep -q "^on this host: the [0-9]* mount-via=kernel points would be refused when run (exit 2): .*has no CephFS client" \
			"dry-host-$name.txt" || fail "$name: the dry run does not say what this host lacks"
		echo "note: $name: no CephFS kernel client here, dry run with ${hargs[*]}"
	fi
	timed dead sweep "$c" --dry-run "${hargs[@]}" >"dry-$name.txt" 2>"dry-$name.err"
	[ "$RC" = 0 ] || fail "$name: --dry-run exit $RC: $(cat "dry-$name.err")"
	# A connect attempt would take the 30 s connect timeout.
	[ "$ELAPSED" -le 5 ] || fail "$name: --dry-run took $ELAPSED s: did it connect?"
	want=$(python3 -c 'import json,sys,math; c=json.load(open(sys.argv[1])); print(math.prod(len(v) - (k == "mount-via" and sys.argv[2] == "1" and "kernel" in v) for k, v in c["matrix"].items()))' "$c" "$([ "${#hargs[@]}" -gt 0 ] && echo 1 || echo 0)")
	got=$(grep -cE '^ +[0-9]+  ' "dry-$name.txt" || true)
	[ "$got" = "$want" ] || fail "$name: $got grid lines, want $want: $(cat "dry-$name.txt")"
	grep -q "^runs: " "dry-$name.txt" || fail "$name: no run count"
	grep -q "^estimated bytes: " "dry-$name.txt" || fail "$name: no bytes estimate"
	grep -q "^estimated time: " "dry-$name.txt" || fail "$name: no time estimate"
done
# The JSON plan counts the same runs, and the estimate is honest about
# what it cannot know: seed 002's one-pass reads have bytes but no time.
dead sweep "$top/configs/readahead-librbd-vs-krbd.json" --dry-run -f json >plan.json
python3 - "$top/configs/readahead-librbd-vs-krbd.json" <<'PY'
import json, math, sys
c = json.load(open(sys.argv[1]))
d = json.load(open("plan.json"))
runs = math.prod(len(v) for v in c["matrix"].values()) * c["repeat"]
size = int(c["params"]["size"][:-1]) << {"M": 20, "G": 30}[c["params"]["size"][-1]]
images = len(c["matrix"]["order"])        # one prefilled image per order
assert d["kind"] == "sweep-plan" and d["runs"] == runs, (d["runs"], runs)
e = d["estimate"]
assert e["seconds"] is None and e["runs_seconds_unknown"] == runs, e   # one pass: time unknown
assert e["bytes"] == (runs + images) * size and e["shared_images"] == images, e
lib = [p for p in d["points"] if p["matrix"]["path"] == "librbd"]
krbd = [p for p in d["points"] if p["matrix"]["path"] == "krbd"]
assert all(p["params"]["sim-osd-latency"] == "2ms" for p in lib)      # path_params.librbd
assert all("sim-osd-latency" not in p["params"] for p in krbd)
assert all(p["command"] == "krbd read" for p in krbd)
PY

echo "== bad overrides exit 2 without touching a cluster"
seed=$top/configs/readahead-librbd-vs-krbd.json
# badp PATTERN ARGS...: exit 2 fast, one message, with PATTERN
badp() { expect_refused --within 5 --one "$1" dead sweep "$seed" "${@:2}"; }
for dr in "" --dry-run; do
	badp "no such option 'bogus'" $dr --param bogus=1
	badp "size 'lots'" $dr --param size=lots
	badp "point {readahead=128K, order=40" $dr --param order=40
	badp "is a matrix axis" $dr --param readahead=
	badp "expected KEY=VALUE" $dr --param size
	badp "non-empty JSON list" $dr --param 'readahead=[]'
	badp "map-via: not an option" $dr --param map-via=fuse-loop
	badp "repeat '0'" $dr --repeat 0
	badp "repeat 'many'" $dr --repeat many
done

echo "== every config, shrunk, end to end"
# The pools of configs/ec-vs-replicated*.json, as the harness makes them
# (ccbench never does): ccb-r3 and ccb-ec21, here named after this test's pool.
mc=$top/scripts/minicluster.sh
on_exit "$mc" pool-rm "$POOL-r3" "$CLUSTER_DIR"
on_exit "$mc" pool-rm "$POOL-ec21" "$CLUSTER_DIR"
"$mc" pool-create "$POOL-r3" --size 3 "$CLUSTER_DIR" 2>/dev/null || fail "pool-create $POOL-r3"
"$mc" pool-create "$POOL-ec21" --ec 2+1 "$CLUSTER_DIR" 2>/dev/null || fail "pool-create $POOL-ec21"
rbd_before=$(rbd ls rbd | sort)
for c in "${configs[@]}"; do
	name=$(basename "$c" .json)
	# A fault config marks OSDs out: end to end on t_fault_recovery's own
	# cluster, not this lane's (its dry runs are above).
	[[ "$name" != fault-* ]] || { echo "-- $name: end to end in t_fault_recovery"; continue; }
	mapfile -t args < <(shrink "$c")
	[ "${#args[@]}" -gt 0 ] || fail "$name: no shrink arguments"
	dead sweep "$c" --dry-run -f json "${args[@]}" >"plan-$name.json" ||
		fail "$name: shrunk dry run failed"
	echo "-- $name: ${args[*]}"
	timed "$CCBENCH" sweep "$c" "${args[@]}" -q --json "out-$name.json" >"table-$name.txt" 2>"err-$name.txt"
	[ "$RC" = 0 ] || { cat "err-$name.txt"; fail "$name: sweep exit $RC"; }
	echo "   $ELAPSED s"
	[[ "$name" != ec-* && "$name" != fault-* ]] || echo "note: $name, shrunk: $ELAPSED s"
	python3 - "out-$name.json" "plan-$name.json" <<'PY' || fail "$name: bad result"
import json, sys
d = json.load(open(sys.argv[1])); plan = json.load(open(sys.argv[2]))
name = sys.argv[1]
assert d["kind"] == "sweep" and d["status"] == "ok", (name, d["status"])
assert d["runs_done"] == plan["runs"], (name, d["runs_done"], plan["runs"])
assert len(d["points"]) == len(plan["points"]) and d["points"], name
for p in d["points"]:
    assert p["runs"], (name, p["matrix"])
    for r in p["runs"]:
        assert r["status"] == "ok", (name, p["matrix"], r["status"], r.get("reason"))
    assert p["aggregate"]["runs_ok"] == len(p["runs"]), (name, p["matrix"])
assert d["overrides"]["repeat"] == 1, name
PY
done
[ "$(rbd ls rbd | sort)" = "$rbd_before" ] || fail "images left in rbd: $(rbd ls rbd)"
[ -z "$(rados -p rbd -N ccbench ls 2>/dev/null)" ] || fail "objects left in rbd/ccbench"
# rbd-fuse exits just after its unmount; give it a moment.
wait_for 5 "rbd-fuse of ours to exit" eval '! pgrep -f "rbd-fuse.*$CCB_STATE_DIR/" >/dev/null'
[ -z "$(our_loop_files)" ] || fail "loop device left: $(our_loop_files)"
[ -z "$(our_mounts)" ] || fail "mount left: $(our_mounts)"
