#!/usr/bin/env bash
# Record a BlueStore OSD's `perf dump bluestore` for test_osd_perf.c (the
# store's commit latency: commit_lat on Pacific, txc_commit_lat since
# Quincy): a one-OSD scripts/minicluster.sh --bluestore cluster of its own,
# a 2 s rados bench of 4K writes, the dump, the cluster stopped.
#
# usage: tests/unit/data/record_bluestore.sh REL
#   (Pacific on the host; Reef and Tentacle inside their image:
#    scripts/release.sh run trixie -- tests/unit/data/record_bluestore.sh reef)
set -euo pipefail
rel=${1:?usage: record_bluestore.sh REL}
top=$(cd "$(dirname "$0")/../../.." && pwd)
d=$(mktemp -d /tmp/ccb-bs-XXXXXX)
rmdir "$d"
trap 'scripts/minicluster.sh stop "$d" >/dev/null 2>&1 || true' EXIT
cd "$top"
scripts/minicluster.sh start --osds 1 --bluestore "$d" >/dev/null 2>&1
export CEPH_CONF=$d/ceph.conf
rados -p rbd bench 2 write -b 4096 -t 4 --no-cleanup >/dev/null 2>&1
ceph --connect-timeout 10 tell osd.0 perf dump bluestore >"tests/unit/data/attr/$rel/perf_dump_bluestore.json"
