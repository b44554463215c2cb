# The image's entrypoint in CI mode, run outside a container: a sweep
# config, JSON/CSV/SVG in RESULTS, and the baseline gate; once against the
# test cluster (CEPH_CONF), once starting its own.  t_container.sh runs the
# image for real; this one keeps what it does not check, in seconds: the
# gate (passes against itself, exit 1 and a REGRESSED report against a
# faster baseline), a conf given by CEPH_CONF, that a self-started cluster
# is stopped and its directory removed (a container hides a leak), and exit
# 2 for an unknown config.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

cat >tiny.json <<'CFG'
{"name": "tiny", "command": "rados write", "params": {"op-size": "1M", "queue-depth": 4, "duration": "1s"},
 "matrix": {"clients": [1, 2]}}
CFG
RESULTS=$WORK/res1 "$top/docker/entrypoint.sh" ci tiny.json -p "$POOL" -q >out1.txt
for f in tiny.json tiny.csv tiny.svg tiny.txt; do [ -s "$WORK/res1/$f" ] || fail "missing $f"; done
python3 -c 'import xml.etree.ElementTree as E, sys; E.parse(sys.argv[1])' "$WORK/res1/tiny.svg"

# The gate: against itself passes; against a baseline twice as fast fails.
python3 - "$WORK/res1/tiny.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["points"]:
    p["aggregate"]["bandwidth_mib_s"]["mean"] *= 2
json.dump(d, open("fast-baseline.json", "w"))
PY
cp "$WORK/res1/tiny.json" same-baseline.json
rc=0
BASELINE=same-baseline.json TOLERANCE=90% RESULTS=$WORK/res2 "$top/docker/entrypoint.sh" ci tiny.json -p "$POOL" -q >out2.txt 2>err2.txt || rc=$?
[ "$rc" = 0 ] || fail "the gate against its own result: exit $rc; $(tr '\n' ' ' <out2.txt | cut -c1-600); stderr: $(tail -3 err2.txt | tr '\n' ' ')"
rc=0
BASELINE=fast-baseline.json TOLERANCE=10% RESULTS=$WORK/res3 "$top/docker/entrypoint.sh" ci tiny.json -p "$POOL" -q >/dev/null || rc=$?
[ "$rc" = 1 ] || fail "regression gate exit $rc"
grep -q REGRESSED "$WORK/res3/tiny.compare.txt" || fail "no compare report"

# Without a cluster it starts a throwaway one and stops it afterwards.
env -u CEPH_CONF RESULTS="$WORK/res4" "$top/docker/entrypoint.sh" ci tiny.json -q >/dev/null 2>own.err
[ -s "$WORK/res4/tiny.json" ] || fail "no result from the self-started cluster"
own=$(sed -n 's/.*starting a throwaway one in \(.*\)$/\1/p' own.err)
[ -n "$own" ] || fail "did not say where its cluster was"
! pgrep -f "$own/ceph.conf" >/dev/null || fail "the entrypoint's cluster was left running"
[ ! -e "$own" ] || fail "the entrypoint's cluster directory was left"
[ ! -e "$(dirname "$own")" ] || fail "the entrypoint's temporary directory was left: $(dirname "$own")"
expect_rc 2 "$top/docker/entrypoint.sh" ci no-such-config
[ -z "$(ns_objects)" ] || fail "objects left"
