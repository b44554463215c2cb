# With simulated OSD latency, 64K sequential reads at queue depth 1 are at
# least 3x faster with 4M of readahead than without; under writearound the
# readahead is inactive (within noise) and a warning says so.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

common=(rbd read --size 128M --io-size 64K -t 1 --sim-osd-latency 2ms -d 4s -q -f json)
"$CCBENCH" "${common[@]}" --readahead 0 >ra0.json
"$CCBENCH" "${common[@]}" --readahead 4M >ra4.json
"$CCBENCH" "${common[@]}" --readahead 4M --cache-policy writearound >wa.json 2>wa.err
bw() { jget "$1" 'd["bandwidth_mib_s"]'; }
echo "readahead 0: $(bw ra0.json)  4M: $(bw ra4.json)  4M writearound: $(bw wa.json)"
python3 -c "import sys; a,b,c=map(float,sys.argv[1:]); sys.exit(0 if b >= 3*a and c < 1.5*a else 1)" \
	"$(bw ra0.json)" "$(bw ra4.json)" "$(bw wa.json)" || fail "readahead effect not as expected"
grep -q "readahead inactive" wa.err || fail "no warning on stderr"
jget wa.json 'd["warnings"]' | grep -q "readahead inactive" || fail "no warning in result"
[ "$(jget wa.json 'd["layout"]["librbd"]["readahead_active"]')" = False ] || fail "readahead_active"
jget ra4.json 'd["warnings"]' | grep -q "simulated" || fail "simulated run not marked"
[ -z "$(rbd ls rbd)" ] || fail "images left"
