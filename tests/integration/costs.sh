#!/usr/bin/env bash
# Print tests/integration/costs from the log of a run (run.sh's or
# test.sh's output: its "PASS t_x (N s" and "FAIL t_x (N s" lines), the
# header kept. A test that ran more than once keeps its longest time.
# usage: tests/integration/costs.sh LOG >tests/integration/costs
set -euo pipefail
[ $# = 1 ] && [ -r "$1" ] || { echo "usage: tests/integration/costs.sh LOG" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
grep '^#' "$here/costs"
sed -nE 's/^(PASS|FAIL) (t_[a-z0-9_]+) \(([0-9]+) s.*/\2 \3/p' "$1" |
	sort -k1,1 -k2,2nr | awk '!seen[$1]++' | sort -k2,2nr -k1,1
