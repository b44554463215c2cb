# The image, built and run for real (podman, runc):
#  1. scripts/container.sh builds it: from nothing on a fresh machine (a
#     debootstrapped base, apt from the Debian mirror), from podman's layer
#     cache in about a second when nothing changed;
#  2. `ci quick` in a container with no network at all (loopback only):
#     the CI mode starts its own throwaway cluster inside, and the results
#     (JSON, CSV, SVG, text) land in a mounted directory; the runs name a
#     cluster other than the host's test cluster;
#  3. three containers at once, --network host, the test cluster's conf and
#     keyring mounted read-only, as one 3-member --group; `group report` on
#     the host finds the 3 members (by their container host names) and an
#     aggregate.
# Every podman call has a timeout; containers and the group are removed
# whatever happens; the timings are printed (they go to the test log).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
ctr=$top/scripts/container.sh

id=ct$$
G=ctgroup$$
names=("$id-ci" "$id-m1" "$id-m2" "$id-m3")
group_made=0
cleanup() {
	local rc=$? n p
	trap - EXIT
	# Our podman clients still running (the test was interrupted): TERM
	# reaches podman through timeout; then the containers go by name.
	for p in $(jobs -p); do
		kill -TERM "$p" 2>/dev/null || true
	done
	for n in "${names[@]}"; do
		if timeout 30 podman container exists "$n" 2>/dev/null; then
			echo "cleanup: removing container $n" >&2
			timeout 60 podman rm -f -t 2 "$n" >/dev/null 2>&1 || true
		fi
	done
	if ((group_made)); then
		timeout 60 "$CCBENCH" group rm "$G" --group-pool "$POOL" >/dev/null 2>&1 || true
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

timings=()
took() { timings+=("$1 $(($(date +%s) - $2)) s"); }
# interruptible CMD...: run CMD in the background and wait for it, so that INT/TERM
# interrupt the test at once (bash defers traps until a foreground child
# ends) and the trap can stop what runs.
interruptible() {
	"$@" &
	wait $!
}

# 1. Build (container.sh has its own timeouts: 1200 s for debootstrap, 1200
# s for the build; this bounds the lock wait too).
s=$(date +%s)
interruptible timeout 3000 "$ctr" build -t ccbench-test >image.id 2>build.log || {
	tail -30 build.log >&2
	fail "image build"
}
took build "$s"
image=$(cat image.id)
grep -E 'container.sh: (base image|built)' build.log | sed 's/^/note: /' || true
[[ "$image" =~ ^[0-9a-f]{64}$ ]] || fail "build printed no image id: '$image'"
timeout 60 "$ctr" run --rm --name "$id-ci" --network none "$image" --version | gq '^ccbench ' ||
	fail "the image's ccbench does not run"

# 2. CI mode with its own cluster, in a container without a network.
res=$PWD/ctr-results
mkdir -p "$res"
s=$(date +%s)
rc=0
interruptible timeout 480 "$ctr" run --rm --name "$id-ci" --timeout 420 --network none \
	-v "$res:/results" "$image" ci quick >ci.out 2>ci.err || rc=$?
took "ci quick" "$s"
[ "$rc" = 0 ] || {
	tail -30 ci.err >&2
	fail "ci quick in the container exited $rc"
}
grep -q 'no cluster given: starting a throwaway one' ci.err || fail "ci did not start its own cluster"
timeout 30 podman container exists "$id-ci" && fail "the ci container was left"
for f in quick.json quick.csv quick.svg quick.txt; do
	[ -s "$res/$f" ] || fail "missing result $f"
done
host_fsid=$(sed -n 's/^[[:space:]]*fsid = //p' "$CLUSTER_DIR/ceph.conf")
python3 - "$res" "$host_fsid" <<'PY'
import csv, json, sys, xml.etree.ElementTree as E
res, host_fsid = sys.argv[1], sys.argv[2]
d = json.load(open(f"{res}/quick.json"))
assert d["kind"] == "sweep" and d["status"] == "ok", (d["kind"], d["status"])
n = 1
for v in d["config"]["matrix"].values():
    n *= len(v)
assert n == 8 and len(d["points"]) == n, (n, len(d["points"]))
fsids = set()
for p in d["points"]:
    assert p["runs"], p["matrix"]
    for r in p["runs"]:
        assert r["status"] == "ok", (p["matrix"], r["status"])
        assert r["bandwidth_mib_s"] > 0 and r["bytes"] > 0
        fsids.add(r["fsid"])
# One cluster, the container's own, not the host's test cluster.
assert len(fsids) == 1 and host_fsid not in fsids, (fsids, host_fsid)
rows = list(csv.DictReader(open(f"{res}/quick.csv")))
assert len(rows) == n, len(rows)
assert all(r["runs_ok"] == "1" and float(r["bandwidth_mib_s_mean"]) > 0 for r in rows), rows
root = E.parse(f"{res}/quick.svg").getroot()
assert root.tag.endswith("svg"), root.tag
assert root.findall(".//{http://www.w3.org/2000/svg}polyline"), "no lines"
PY
grep -q '^recommendation' "$res/quick.txt" || fail "no recommendation in quick.txt"

# 3. A 3-member group from three containers against the host's test cluster.
if [ ! -s "$CLUSTER_DIR/ceph.conf" ] || [ ! -s "$CLUSTER_DIR/keyring" ]; then
	fail "no test cluster conf/keyring in $CLUSTER_DIR"
fi
# Each member writes its result into a mounted directory (--output), not
# through podman's attached stdout: with three containers at once, podman
# 4.3 once lost a whole member's stdout and stderr (CI, 2026-12-04: an
# empty m3.json from a member that ran, as members 1 and 2's results
# show: they started as a group of 3).
s=$(date +%s)
group_made=1
pids=()
mkdir -p "$PWD/ctr-members"
rm -f "$PWD"/ctr-members/m[123].json
for i in 1 2 3; do
	timeout 240 "$ctr" run --rm --name "$id-m$i" --hostname "$id-m$i" --timeout 200 --network host \
		-v "$CLUSTER_DIR/ceph.conf:/etc/ceph/ceph.conf:ro" \
		-v "$CLUSTER_DIR/keyring:/etc/ceph/keyring:ro" \
		-v "$PWD/ctr-members:/out" \
		"$image" rados write -c /etc/ceph/ceph.conf -k /etc/ceph/keyring -p "$POOL" \
		-d 3s -b 64K -t 4 --group "$G" --members 3 --group-timeout 120s -q -f json \
		--output /out/m$i.json >m$i.out 2>m$i.err &
	pids+=($!)
done
rc=0
for i in 1 2 3; do
	wait "${pids[$((i - 1))]}" || { rc=$?; echo "member container $i exited $rc" >&2; }
done
took "group of 3 containers" "$s"
for i in 1 2 3; do
	cp "$PWD/ctr-members/m$i.json" m$i.json 2>/dev/null || fail "member $i wrote no result (exit status above)"
	cat m$i.err >&2
	jget m$i.json 'd["status"]' | gq -x ok || fail "member $i status"
	jget m$i.json 'd["group"]["name"]' | gq -x "$G" || fail "member $i: not in the group"
done
[ "$rc" = 0 ] || fail "a member container exited $rc"

s=$(date +%s)
timeout 120 "$CCBENCH" group report "$G" --group-pool "$POOL" -f json >r.json
timeout 120 "$CCBENCH" group report "$G" --group-pool "$POOL" >r.txt
took "group report" "$s"
python3 - r.json "$id" m1.json m2.json m3.json <<'PY'
import json, sys
r, cid = json.load(open(sys.argv[1])), sys.argv[2]
mine = [json.load(open(f)) for f in sys.argv[3:]]
assert r["status"] == "complete", r["status"]
assert r["members_expected"] == 3 and r["missing"] == [], (r["members_expected"], r["missing"])
ms = r["members"]
assert len(ms) == 3 and all(m["state"] == "done" for m in ms), [m["state"] for m in ms]
# The members are the three containers (their host names), the ones
# whose results the containers printed.
assert sorted(m["host"] for m in ms) == [f"{cid}-m{i}" for i in (1, 2, 3)], [m["host"] for m in ms]
assert sorted(m["group"]["member"] for m in mine) == sorted(m["member"] for m in ms)
agg = r["aggregate"]
assert agg["members"] == 3, agg["members"]
assert agg["bytes"] > 0 and agg["bandwidth_mib_s"] > 0
assert abs(agg["bytes"] - sum(m["window_bytes"] for m in ms)) < 1
# They started together: the planned instant is 2 s ahead of the last
# registration, so even a loaded host keeps the skew far below a second.
assert r["start_skew_ms"] < 1000, r["start_skew_ms"]
PY
grep -q '^aggregate' r.txt || fail "text report: no aggregate line"
expect_rc 0 timeout 60 "$CCBENCH" group rm "$G" --group-pool "$POOL"
group_made=0
[ -z "$(ns_objects)" ] || fail "run objects left: $(ns_objects | head -3)"
for n in "${names[@]}"; do
	timeout 30 podman container exists "$n" && fail "container $n was left"
done

echo "note: t_container timings: ${timings[*]/%/;}"
