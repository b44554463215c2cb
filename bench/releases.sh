#!/usr/bin/env bash
# The same small cases on every Ceph release, side by side, in one run:
# rounds alternate the releases (bookworm, trixie, forky, bookworm, ...) so
# that the machine's load drifts over all of them alike.  Each round of a
# release runs in that release's image (scripts/release.sh run): a fresh
# throwaway cluster of that release (3 memstore OSDs, 1G each), then
#   rados  rados write, 4M objects, 16 in flight, 10 s (or 2 GiB)
#   rbd    rbd read, 64K, queue depth 1, 10 s, of a 256M temporary image
# with ccbench as built against that release (build-rel-REL, made by the
# release stage, or here if missing).  Not part of the tests.
#
# usage: bench/releases.sh [ROUNDS]   (default 2; RELEASES="trixie forky" to choose)
# Prints one line per run, then the mean per release and case (MiB/s,
# IOPS, p50 and p99 latency in us).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

if [[ "${1:-}" == --inside ]]; then
	# In the release's container: one round, one TSV line per case.
	rel=$CCB_RELEASE round=$2
	cc=$top/build-rel-$rel/ccbench
	if [[ ! -x "$cc" ]]; then
		cmake -S "$top" -B "$top/build-rel-$rel" -DCCB_TESTS=OFF >/dev/null
		make -C "$top/build-rel-$rel" -j"$(nproc)" --no-print-directory >/dev/null
	fi
	d=$(mktemp -d /tmp/ccbench-releases.XXXXXX)
	trap '"$top/scripts/minicluster.sh" stop "$d/c" >/dev/null 2>&1; rm -rf "$d"' EXIT
	"$top/scripts/minicluster.sh" start --osd-mem 1G "$d/c" >/dev/null 2>"$d/start.log" ||
		{ cat "$d/start.log" >&2; exit 1; }
	export CEPH_CONF=$d/c/ceph.conf
	ceph=$(ceph --version | awk '{print $3}')
	line() { # line CASE JSON
		python3 - "$rel" "$round" "$1" "$ceph" "$2" <<'PY'
import json, sys
rel, rnd, case, ceph, f = sys.argv[1:]
d = json.load(open(f))
lat = d.get("latency_us", {})
print("\t".join([rel, ceph, rnd, case, "%.1f" % d["bandwidth_mib_s"], "%.0f" % d["iops"],
                 "%.0f" % lat.get("p50", 0), "%.0f" % lat.get("p99", 0)]))
PY
	}
	"$cc" rados write -p rbd -b 4M -t 16 -d 10s --total 2G -q -f json >"$d/rados.json"
	line rados "$d/rados.json"
	"$cc" rbd read -p rbd --size 256M --io-size 64K -t 1 -d 10s -q -f json >"$d/rbd.json"
	line rbd "$d/rbd.json"
	exit 0
fi

rounds=${1:-2}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "releases.sh: ROUNDS must be a positive number, not '$rounds'" >&2; exit 2; }
read -ra rels <<<"${RELEASES:-bookworm trixie forky}"
out=$(mktemp /tmp/ccbench-releases.XXXXXX.tsv)
trap 'rm -f "$out"' EXIT
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'release\tceph\tround\tcase\tMiB/s\tIOPS\tp50_us\tp99_us\n'
for ((r = 1; r <= rounds; r++)); do
	for rel in "${rels[@]}"; do
		"$top/scripts/release.sh" run "$rel" -- "$top/bench/releases.sh" --inside "$r" | tee -a "$out"
	done
done
echo "# mean over $rounds round(s)"
awk -F'\t' '{k = $1 "\t" $2 "\t" $4; n[k]++; bw[k] += $5; io[k] += $6; p50[k] += $7; p99[k] += $8; if (!(k in o)) {o[k] = ++m; key[m] = k}}
	END {for (i = 1; i <= m; i++) {k = key[i]; printf "%s\t%.1f\t%.0f\t%.0f\t%.0f\n", k, bw[k]/n[k], io[k]/n[k], p50[k]/n[k], p99[k]/n[k]}}' "$out"
