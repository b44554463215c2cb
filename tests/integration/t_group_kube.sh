# The Indexed Job of `group manifest`, its pods run for real (issue 34): no
# Kubernetes server runs here, so the test does what the Job controller
# would and `podman kube play` runs the pods. From the manifest as printed
# (the Rook way: the mon endpoints ConfigMap, the rook-ceph-mon Secret) it
# makes one Pod per index with the Job's pod template and
# JOB_COMPLETION_INDEX set, as Kubernetes sets it, then the report Job's
# pod. Changed, and only these: hostNetwork (the throwaway cluster listens
# on 127.0.0.1), no anti-affinity (one node), and the Secret volume becomes
# a hostPath directory holding the same two keys, because podman 4.3's kube
# play crashes on any secret volume (a nil secrets manager in
# VolumeFromSecret). The ConfigMap goes through kube play's --configmap,
# one copy per pod (named after the test): podman keeps a ConfigMap as a
# named volume of the host, shared by every pod and every run, and
# rewrites its files (truncate, write) as each pod is made, so pod 0 read
# an empty mon address while pod 1 was made (CI of 2026-12-04).
# The pods' own script writes the conf and keyring, each runs member
# G-m$JOB_COMPLETION_INDEX, the group completes with 3 members on 3 pod
# host names, and the report pod exits 0 with the aggregate. Pods, group
# and files go whatever happens.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
ctr=$top/scripts/container.sh

N=3
G=gk$$
dir=$(mktemp -d "$PWD/gk.XXXXXX")
pods=()
for i in $(seq 0 $((N - 1))); do pods+=("ccbench-$G-$i"); done
pods+=("ccbench-$G-report")
cms=()
for i in $(seq 0 $N); do cms+=("rook-ceph-mon-endpoints-$G-$i"); done
cleanup() {
	local rc=$? p
	trap - EXIT
	for p in "${pods[@]}"; do
		if timeout 30 podman pod exists "$p" 2>/dev/null; then
			timeout 60 podman pod rm -f -t 2 "$p" >/dev/null 2>&1 || true
		fi
	done
	for p in "${cms[@]}"; do
		timeout 30 podman volume rm -f "$p" >/dev/null 2>&1 || true
	done
	timeout 60 "$CCBENCH" group rm "$G" --group-pool "$POOL" >/dev/null 2>&1 || true
	rm -rf "$dir"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

s=$(date +%s)
timeout 3000 "$ctr" build -t ccbench-test >"$dir/image.id" 2>"$dir/build.log" || {
	tail -30 "$dir/build.log" >&2
	fail "image build"
}
image=$(cat "$dir/image.id")
[[ "$image" =~ ^[0-9a-f]{64}$ ]] || fail "build printed no image id: '$image'"
built=$(($(date +%s) - s))

"$CCBENCH" group manifest "$G" --members $N rados write -p "$POOL" -d 3s -b 64K -t 4 \
	--k8s-namespace default --k8s-image "$image" >"$dir/job.yaml"

# Rook's two records, from the test cluster: "a=IP:PORT" (its v1 address)
# and the admin's name and key, in a 0700 directory.
v1=$(sed -n 's/.*mon host = .*v1:\([0-9.]*:[0-9]*\).*/\1/p' "$CLUSTER_DIR/ceph.conf")
[ -n "$v1" ] || fail "no v1 mon address in $CLUSTER_DIR/ceph.conf"
key=$(sed -n 's/^[[:space:]]*key = //p' "$CLUSTER_DIR/keyring" | head -1)
mkdir -m 0700 "$dir/secret"
printf 'client.admin' >"$dir/secret/ceph-username"
printf '%s' "$key" >"$dir/secret/ceph-secret"
python3 - "$dir" "$v1" "$G" <<'PY'
import copy, sys, yaml
d, v1, g = sys.argv[1], sys.argv[2], sys.argv[3]
member, report = [j for j in yaml.safe_load_all(open(f"{d}/job.yaml")) if j]
assert member["spec"]["completionMode"] == "Indexed" and member["spec"]["completions"] == 3

def pod(job, name, index):
    spec = copy.deepcopy(job["spec"]["template"]["spec"])
    spec.pop("affinity", None)
    spec["hostNetwork"] = True
    for v in spec["volumes"]:
        if "configMap" in v:
            assert v["configMap"]["name"] == "rook-ceph-mon-endpoints", v
            v["configMap"]["name"] = "rook-ceph-mon-endpoints-%s-%d" % (g, n if index is None else index)
        if "secret" in v:
            assert v["secret"]["secretName"] == "rook-ceph-mon", v
            v.pop("secret")
            v["hostPath"] = {"path": f"{d}/secret", "type": "Directory"}
    if index is not None:
        for c in spec["containers"]:
            c.setdefault("env", []).append({"name": "JOB_COMPLETION_INDEX", "value": str(index)})
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "labels": job["spec"]["template"]["metadata"]["labels"]},
            "spec": spec}

n = member["spec"]["completions"]
yaml.safe_dump_all([pod(member, "%s-%d" % (member["metadata"]["name"], i), i) for i in range(n)],
                   open(f"{d}/members.yaml", "w"), sort_keys=False)
yaml.safe_dump(pod(report, report["metadata"]["name"], None), open(f"{d}/report.yaml", "w"),
               sort_keys=False)
for i in range(n + 1):
    yaml.safe_dump({"apiVersion": "v1", "kind": "ConfigMap",
                    "metadata": {"name": "rook-ceph-mon-endpoints-%s-%d" % (g, i)},
                    "data": {"data": f"a={v1}"}}, open(f"{d}/mon-endpoints-{i}.yaml", "w"))
PY

# A container's exit code once it exited: `podman wait` (4.3) answers
# about 20 s after a kube-played container ended; its state is at once.
# A pod's container that ended is "stopped" (a plain one "exited").
exited() {
	sleep 0.4
	case "$(timeout 30 podman inspect --format '{{.State.Status}}' "$1" 2>/dev/null)" in
	exited | stopped) return 0 ;;
	*) return 1 ;;
	esac
}
exit_code() { # exit_code CONTAINER SECS
	poll "$2" exited "$1" || return 1
	timeout 30 podman inspect --format '{{.State.ExitCode}}' "$1"
}

s=$(date +%s)
cm=$(for i in $(seq 0 $((N - 1))); do printf '%s,' "$dir/mon-endpoints-$i.yaml"; done)
timeout 300 "$ctr" kube-play --configmap "${cm%,}" "$dir/members.yaml" >"$dir/play.out" 2>&1 || {
	cat "$dir/play.out" >&2
	fail "kube play of the member pods"
}
played=$(($(date +%s) - s))
for i in $(seq 0 $((N - 1))); do
	rc=$(exit_code "ccbench-$G-$i-member" 180) ||
		fail "member pod $i: no exit within 180 s (state: $(timeout 30 podman inspect --format '{{.State.Status}}' "ccbench-$G-$i-member" 2>&1); $(timeout 30 podman logs "ccbench-$G-$i-member" 2>&1 | tail -3 | tr '\n' ' '))"
	[ "$rc" = 0 ] || {
		timeout 30 podman logs "ccbench-$G-$i-member" 2>&1 | tail -20 >&2
		fail "member pod $i exited $rc"
	}
done
members=$(($(date +%s) - s))
s=$(date +%s)
timeout 300 "$ctr" kube-play --configmap "$dir/mon-endpoints-$N.yaml" "$dir/report.yaml" >>"$dir/play.out" 2>&1 || {
	cat "$dir/play.out" >&2
	fail "kube play of the report pod"
}
rc=$(exit_code "ccbench-$G-report-report" 180) ||
	fail "report pod: no exit within 180 s (state: $(timeout 30 podman inspect --format '{{.State.Status}}' "ccbench-$G-report-report" 2>&1))"
timeout 30 podman logs "ccbench-$G-report-report" >"$dir/report.txt" 2>&1 || true
[ "$rc" = 0 ] || {
	cat "$dir/report.txt" >&2
	fail "report pod exited $rc"
}
grep -q "^group $G: rados write, $N members expected, .*complete" "$dir/report.txt" ||
	fail "report pod: no complete group: $(head -3 "$dir/report.txt")"
grep -q '^aggregate' "$dir/report.txt" || fail "report pod: no aggregate line"
reported=$(($(date +%s) - s))

# On the host: the members are the pods (their host names), each index once.
"$CCBENCH" group report "$G" --group-pool "$POOL" -f json >"$dir/r.json"
python3 - "$dir/r.json" "$G" $N <<'PY'
import json, sys
r, g, n = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
assert r["status"] == "complete", r["status"]
ms = r["members"]
assert len(ms) == n and all(m["state"] == "done" for m in ms), [m["state"] for m in ms]
assert sorted(m["host"] for m in ms) == ["ccbench-%s-%d" % (g, i) for i in range(n)], [m["host"] for m in ms]
assert r["aggregate"]["members"] == n and r["aggregate"]["bandwidth_mib_s"] > 0
PY
# Each pod ran its own index: the run names of the results the members
# stored, G-m0 .. G-m2 (from the cluster: podman 4.3 lost one pod's whole
# log in CI, as it lost a member's stdout in t_container).
for o in $(rados -p "$POOL" -N ccbench-groups ls | grep "^$G\.result\."); do
	rados -p "$POOL" -N ccbench-groups get "$o" "$dir/$o.json" || fail "rados get $o"
done
python3 - "$dir" "$G" $N <<'PY'
import glob, json, sys
d, g, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def run_names(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "run_name" and isinstance(x, str):
                yield x
            else:
                yield from run_names(x)
    elif isinstance(v, list):
        for x in v:
            yield from run_names(x)
names = sorted({r for f in glob.glob(f"{d}/{g}.result.*.json") for r in run_names(json.load(open(f))["result"])})
assert names == ["%s-m%d" % (g, i) for i in range(n)], names
PY
logs=0
for i in $(seq 0 $((N - 1))); do
	timeout 30 podman logs "ccbench-$G-$i-member" 2>&1 | gq "run $G-m$i\$" && logs=$((logs + 1))
done
[ -z "$(ns_objects)" ] || fail "run objects left: $(ns_objects | head -3)"
echo "note: $N member pods and the report pod played (podman kube play), their runs G-m0..m$((N - 1)) stored ($logs of $N pod logs kept by podman): image $built s, members $members s (kube play $played s), report $reported s; $(grep '^aggregate' "$dir/report.txt" | tr -s ' ')"
