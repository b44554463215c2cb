# With simulated OSD latency, 64K sequential reads at queue depth 1 are at
# least 3x faster with 4M of readahead than without; under writearound the
# readahead is inactive and a warning says so: every read there waits for
# the OSD (its mean latency is no less than 400 us, where the delay is up
# to 2 ms, ~1 ms mean), which a load on the machine can only raise. Its
# bandwidth is not compared with the first run's: two runs alike varied 2x
# under load.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

common=(rbd read --size 128M --io-size 64K -t 1 --sim-osd-latency 2ms -d 4s -q -f json)
"$CCBENCH" "${common[@]}" --readahead 0 >ra0.json
"$CCBENCH" "${common[@]}" --readahead 4M >ra4.json
"$CCBENCH" "${common[@]}" --readahead 4M --cache-policy writearound >wa.json 2>wa.err
bw() { jget "$1" 'd["bandwidth_mib_s"]'; }
echo "readahead 0: $(bw ra0.json)  4M: $(bw ra4.json)  4M writearound: $(bw wa.json)"
python3 -c "import sys; a,b=map(float,sys.argv[1:]); sys.exit(0 if b >= 3*a else 1)" \
	"$(bw ra0.json)" "$(bw ra4.json)" || fail "readahead effect not as expected"
lat=$(jget wa.json 'd["latency_us"]["mean"]')
echo "writearound mean latency: $lat us"
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 400 else 1)" "$lat" ||
	fail "writearound reads did not wait for the OSD (mean $lat us): was the readahead active?"
grep -q "readahead inactive" wa.err || fail "no warning on stderr"
jget wa.json 'd["warnings"]' | gq "readahead inactive" || fail "no warning in result"
[ "$(jget wa.json 'd["layout"]["librbd"]["readahead_active"]')" = False ] || fail "readahead_active"
jget ra4.json 'd["warnings"]' | gq "simulated" || fail "simulated run not marked"
[ -z "$(new_images)" ] || fail "images left: $(new_images)"
