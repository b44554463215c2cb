#!/usr/bin/env bash
# ./scripts/demo.sh as a new user runs it on a fresh machine of release REL:
# in REL's bare base image (minbase, apt sources, nothing else), the
# checkout's files (those git tracks, as they are in the work tree) copied to
# /root/ccbench, and `./scripts/demo.sh` started there, not from /.  It
# installs its packages (apt, from the Debian mirror), builds, starts a
# throwaway cluster and runs.  The container goes afterwards.
#
# usage: tests/release/demo.sh REL   (on the host; bookworm, trixie or forky)
# Output: the demo's, then "demo REL: exit N in S s".  Exit: the demo's.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
rel=${1:?usage: tests/release/demo.sh REL}
tmp=$(mktemp -d /var/tmp/ccbench-demo-src.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
git -C "$top" ls-files -z | tar -C "$top" --null -T - -cf "$tmp/src.tar"
s=$(date +%s)
rc=0
CCB_RELEASE_TIMEOUT=${CCB_RELEASE_TIMEOUT:-2400} "$top/scripts/release.sh" run-base "$rel" -v "$tmp:/src:ro" -- \
	bash -c 'mkdir /root/ccbench && tar -C /root/ccbench -xf /src/src.tar && cd /root/ccbench && ./scripts/demo.sh' ||
	rc=$?
echo "demo $rel: exit $rc in $(($(date +%s) - s)) s"
exit "$rc"
