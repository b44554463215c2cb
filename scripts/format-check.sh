#!/usr/bin/env bash
# Fail when a C source or header of the tree differs from .clang-format
# (jansson's scripts/clang-format-check is the model): prints each file
# that would change and the command that fixes it.
#
# usage: scripts/format-check.sh [--fix]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
command -v clang-format >/dev/null || { echo "format-check: clang-format not installed" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cc' 2>/dev/null || find src include tests -name '*.[ch]')
if [ "${1:-}" = --fix ]; then
	clang-format -i "${files[@]}"
	exit 0
fi
bad=()
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
	echo "format-check: ${#bad[@]} file(s) differ from .clang-format:" >&2
	printf '  %s\n' "${bad[@]}" >&2
	echo "fix with: scripts/format-check.sh --fix" >&2
	exit 1
fi
echo "format-check: ${#files[@]} files formatted"
