# --format json leaves nothing but JSON on stdout; csv is one header and one
# row; --output writes the file; progress goes to stderr only.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$CCBENCH" rados write -p "$POOL" -d 2s -b 64K --clients 3 -t 4 -f json >j.json 2>j.err
python3 - j.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))          # whole stdout must parse
for k in ["ccbench_version", "schema", "command", "parameters", "fsid", "bytes", "ops",
          "seconds", "bandwidth_mib_s", "iops", "bandwidth_per_second_mib_s", "latency_us",
          "series", "clients", "errors", "status", "reason", "warnings", "layout"]:
    assert k in d, k
for k in ["min", "mean", "stddev", "p50", "p90", "p99", "p99_9", "max"]:
    assert k in d["latency_us"], k
assert len(d["clients"]) == 3
assert sum(c["bytes"] for c in d["clients"]) == d["bytes"]
assert sum(s["bytes"] for s in d["series"]) == d["bytes"]
assert abs(d["bandwidth_mib_s"] - d["bytes"] / 1048576 / d["seconds"]) < 1e-6
assert d["parameters"]["queue-depth"] == 4 and d["parameters"]["clients"] == 3
assert len(d["fsid"]) == 36
PY
grep -q "MiB/s" j.err || fail "no progress on stderr"

"$CCBENCH" rados write -p "$POOL" -d 1s -b 64K -q -f csv >c.csv
[ "$(wc -l <c.csv)" = 2 ] || fail "csv lines"
[ "$(head -1 c.csv | tr ',' '\n' | wc -l)" = "$(tail -1 c.csv | tr ',' '\n' | wc -l)" ] || fail "csv columns"

"$CCBENCH" rados write -p "$POOL" -d 1s -b 64K -q -f json --output out.json >stdout.txt
[ ! -s stdout.txt ] || fail "stdout not empty with --output"
jget out.json 'd["status"]' | gq ok || fail "--output file"
ls | gq '\.tmp\.' && fail "temporary output left" || true
