# `ccbench group manifest`: the Indexed Job and the report Job it prints
# pass a strict offline check against the Kubernetes API models
# (python3-kubernetes: an unknown field or a wrong type fails; the checker
# is shown to fail on both), and hold what a group needs: completionMode
# Indexed, completions = parallelism = N, backoffLimit 0, anti-affinity
# across nodes, each member's run named by JOB_COMPLETION_INDEX, the conf
# and keyring from Rook's ConfigMap and Secret (or --k8s-secret), and
# never a key. Bad input exits 2. Nothing is sent to the cluster.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Debian's python3 has python3-kubernetes (scripts/deps.sh), whatever
# python3 comes first in PATH.
PY=/usr/bin/python3
check=$(dirname "$0")/k8s/check_job.py

"$CCBENCH" group manifest wk48 --members 4 rados write -p "$POOL" -d 60s -t 32 -b 1M >rook.yaml
"$CCBENCH" group manifest wk48 --members 3 --k8s-secret ceph-bench --k8s-namespace bench \
	--k8s-image registry.example/ccbench:1.0 rbd read -p "$POOL" --io-size 64K -d 30s \
	-n client.bench >secret.yaml
$PY "$check" rook.yaml secret.yaml || fail "not valid Kubernetes Jobs"

# The checker fails on what the API does not have, and on a wrong type.
sed 's/^  completions: 4$/  completionz: 4/' rook.yaml >bad1.yaml
sed 's/^  parallelism: 4$/  parallelism: "4"/' rook.yaml >bad2.yaml
sed 's/^        image: "ccbench"$/        image: ["ccbench"]/' rook.yaml >bad3.yaml
for f in bad1 bad2 bad3; do
	! cmp -s rook.yaml $f.yaml || fail "$f: the edit did not apply"
done
$PY "$check" --expect-fault bad1.yaml bad2.yaml bad3.yaml >bad.out || {
	cat bad.out
	fail "the checker passed a broken Job"
}
cat bad.out

$PY - rook.yaml secret.yaml "$CEPH_CONF" <<'PY'
import configparser, glob, os, sys, yaml
rook = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
sec = [d for d in yaml.safe_load_all(open(sys.argv[2])) if d]
for docs, n in ((rook, 4), (sec, 3)):
    job, rep = docs
    s = job["spec"]
    assert s["completionMode"] == "Indexed", s
    assert s["completions"] == s["parallelism"] == n, s
    assert s["backoffLimit"] == 0 and rep["spec"]["backoffLimit"] == 0
    pod = s["template"]["spec"]
    assert pod["restartPolicy"] == "Never"
    aa = pod["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
    assert aa["topologyKey"] == "kubernetes.io/hostname", aa
    assert aa["labelSelector"]["matchLabels"] == s["template"]["metadata"]["labels"] or \
        set(aa["labelSelector"]["matchLabels"].items()) <= set(s["template"]["metadata"]["labels"].items())
    c = pod["containers"][0]
    assert c["resources"]["requests"]["cpu"] and c["resources"]["requests"]["memory"]
    script = c["command"][2]
    assert "$JOB_COMPLETION_INDEX" in script and "--run-name" in script, script
    args = c["args"]
    i = args.index("--group"); assert args[i + 1] == "wk48"
    i = args.index("--members"); assert args[i + 1] == str(n)
    assert "-c" not in args and "-k" not in args
    # The report Job reports this group, waiting (bounded) for its members.
    ra = rep["spec"]["template"]["spec"]["containers"][0]["args"]
    assert ra[:3] == ["group", "report", "wk48"] and "--wait" in ra, ra
# Rook: the mon endpoints ConfigMap and the mon Secret, as its toolbox mounts them.
vols = {v["name"]: v for v in rook[0]["spec"]["template"]["spec"]["volumes"]}
assert vols["mon-endpoints"]["configMap"]["name"] == "rook-ceph-mon-endpoints"
assert vols["mon-secret"]["secret"]["secretName"] == "rook-ceph-mon"
assert rook[0]["metadata"]["namespace"] == "rook-ceph"
c = rook[0]["spec"]["template"]["spec"]["containers"][0]
assert ["rados", "write"] == [a for a in c["args"] if a in ("rados", "write")]
# A named Secret mounted as /etc/ceph, the image and namespace given.
pod = sec[0]["spec"]["template"]["spec"]
assert pod["volumes"][0]["secret"]["secretName"] == "ceph-bench"
assert pod["containers"][0]["volumeMounts"][0]["mountPath"] == "/etc/ceph"
assert pod["containers"][0]["image"] == "registry.example/ccbench:1.0"
assert sec[0]["metadata"]["namespace"] == "bench"
assert "client.bench" in pod["containers"][0]["args"]
# No key of the cluster anywhere in either manifest.
conf = configparser.ConfigParser(strict=False)
conf.read(sys.argv[3])
keys = []
for kr in glob.glob(os.path.join(os.path.dirname(sys.argv[3]), "*keyring*")):
    for line in open(kr):
        if line.strip().startswith("key"):
            keys.append(line.split("=", 1)[1].strip())
assert keys, "no key found to look for"
text = open(sys.argv[1]).read() + open(sys.argv[2]).read()
assert not any(k in text for k in keys), "a key is in the manifest"
PY

# Bad input: exit 2, one message, before anything.
expect_rc 2 "$CCBENCH" group manifest wk48 rados write -p "$POOL"
expect_rc 2 "$CCBENCH" group manifest wk48 --members 0 rados write -p "$POOL"
expect_rc 2 "$CCBENCH" group manifest wk48 --members 2 rados bogus -p "$POOL"
expect_rc 2 "$CCBENCH" group manifest wk48 --members 2 rados write -p "$POOL" -b 4X
expect_rc 2 "$CCBENCH" group manifest wk48 --members 2 rados write -p "$POOL" --io-size 4K
expect_rc 2 "$CCBENCH" group manifest wk48 --members 2 rados write -p "$POOL" --group other
expect_rc 2 "$CCBENCH" group manifest wk48 --members 2 rados write -p "$POOL" -o key=AQBxyz
expect_rc 2 "$CCBENCH" group manifest wk48 --members 2 rados write -p "$POOL" -c "$CEPH_CONF"
expect_rc 2 "$CCBENCH" group manifest wk48 --members 2 --k8s-namespace Rook_Ceph rados write -p "$POOL"
expect_rc 2 "$CCBENCH" group manifest wk48 --members 2 --k8s-secret 'a.b' rados write -p "$POOL"
expect_rc 2 "$CCBENCH" group manifest wk48 --members 2 --k8s-image 'a b' rados write -p "$POOL"
expect_rc 2 "$CCBENCH" group manifest _wk --members 2 rados write -p "$POOL"
