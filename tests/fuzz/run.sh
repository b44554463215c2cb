#!/usr/bin/env bash
# Build the libFuzzer targets (clang, ASan + UBSan) and run each for a
# bounded time on a copy of its seed corpus.
#
# usage: tests/fuzz/run.sh [TARGET...]      (default: every target)
#   TARGET is units, options, cli, sweep, group, state, report or restore.
#
# Environment:
#   CCB_FUZZ_SECONDS  time per target (default 20)
#   CCB_FUZZ_BUILD    build directory (default build-fuzz at the top)
#   CCB_FUZZ_ARGS     extra libFuzzer arguments (e.g. -seed=1)
#   CCB_FUZZ_JOBS     targets fuzzed at once (default: one per core)
#
# First the inputs of tests/fuzz/regress/TARGET/ (bugs found before, one
# run each), then fuzzing. A crash, sanitizer report, leak, hang
# (-timeout=5) or out-of-memory (-rss_limit_mb=2048) fails the run; the
# reproducer is kept under BUILD/artifacts/ and the command that replays it
# is printed. The tree's
# corpus is never written: each target works on a copy in a temporary
# directory, removed at the end. Prints executions, exec/s and coverage
# (libFuzzer's cov: and ft:) per target.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/fuzz
build=${CCB_FUZZ_BUILD:-$top/build-fuzz}
seconds=${CCB_FUZZ_SECONDS:-20}
all=(units options cli sweep group state report restore)
targets=("$@")
((${#targets[@]})) || targets=("${all[@]}")

for t in "${targets[@]}"; do
    [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz: unknown target '$t' (${all[*]})" >&2; exit 2; }
done
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: CCB_FUZZ_SECONDS '$seconds': expected whole seconds" >&2; exit 2; }
command -v clang >/dev/null || { echo "fuzz: clang not found (scripts/deps.sh installs it)" >&2; exit 2; }

echo "== fuzz: build ($build)" >&2
cmake -S "$top" -B "$build" -DCMAKE_C_COMPILER=clang -DCCB_FUZZ=ON -DCCB_TESTS=OFF \
    -DCCB_WERROR=ON >/dev/null
make -C "$build" -j"$(nproc)" --no-print-directory "${targets[@]/#/fuzz_}" >/dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/ccb-fuzz-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
artifacts=$build/artifacts
mkdir -p "$artifacts"

# Leaks are findings too; UBSan stops at the first report so libFuzzer
# saves the input.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The first report of a log, in one line: what went wrong, not where.
first_error() {
    grep -m1 -oE '==fuzz sandbox== .*\) refused|ERROR: (libFuzzer: [a-z0-9 -]+|[A-Za-z]+Sanitizer: [a-z-]+)|runtime error: .*' "$1" || true
}

# fuzz_one TARGET: its regression inputs, then fuzzing; its summary line
# goes to $work/TARGET.line, and $work/TARGET.failed exists if it failed.
fuzz_one() {
    local t=$1 bin dir r what rc execs rate cov corp line refused found keep f
    local -a args regress_failed=() mine=()
    bin=$build/tests/fuzz/fuzz_$t
    dir=$work/$t
    mkdir -p "$dir/corpus" "$dir/tmp" "$dir/artifacts"
    cp "$here/corpus/$t/"* "$dir/corpus/"
    args=(-max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1
          -close_fd_mask=1 -artifact_prefix="$dir/artifacts/")
    [[ -f "$here/dict/$t.dict" ]] && args+=(-dict="$here/dict/$t.dict")
    # shellcheck disable=SC2206 # CCB_FUZZ_ARGS is a list of words on purpose
    args+=(${CCB_FUZZ_ARGS:-})
    # Known bugs first: each input once, so every one is reported.
    for r in "$here/regress/$t/"*; do
        [[ -f "$r" ]] || continue
        if ! (cd "$dir" && TMPDIR=$dir/tmp "$bin" -timeout=5 -rss_limit_mb=2048 "$r" \
            >"$dir/regress.log" 2>&1); then
            what=$(first_error "$dir/regress.log")
            echo "fuzz: $t FAILED on regression input ${r#"$top"/}: ${what:-see the log}" >&2
            cp "$dir/regress.log" "$artifacts/$t-regress-$(basename "$r").log"
            echo "fuzz: log: $artifacts/$t-regress-$(basename "$r").log" >&2
            echo "fuzz: replay: $bin $r" >&2
            regress_failed+=("$t:$(basename "$r")")
            : >"$work/$t.failed"
        fi
    done
    echo "== fuzz: $t (${seconds}s)" >&2
    rc=0
    (cd "$dir" && TMPDIR=$dir/tmp "$bin" "${args[@]}" "$dir/corpus" >"$dir/log" 2>&1) || rc=$?

    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$dir/log" | tail -1 || true)
    corp=$(sed -n 's/^#[0-9]*.*corp: \([0-9]*\)\/.*/\1/p' "$dir/log" | tail -1)
    line=$(printf '%-8s %10s execs %8s exec/s  %-22s corpus %s' "$t" "${execs:-?}" \
        "${rate:-?}" "${cov:-cov: ? ft: ?}" "${corp:-?}")
    # Removals a record asked for outside the sandbox (see sandbox.h).
    refused=$(sed -n 's/^fuzz sandbox: \([0-9]*\) removal.*/\1/p' "$dir/log" | tail -1)
    [[ -n "$refused" ]] && line+="  (refused $refused removals outside the sandbox)"

    found=$(find "$dir/artifacts" -type f | head -1)
    if ((rc != 0)) || [[ -n "$found" ]]; then
        what=$(first_error "$dir/log")
        keep=""
        if [[ -n "$found" ]]; then
            keep=$artifacts/$t-$(basename "$found")
            cp "$found" "$keep"
        fi
        cp "$dir/log" "$artifacts/$t.log"
        {
            echo "fuzz: $t FAILED (exit $rc): ${what:-see the log}"
            sed -n '/^==[0-9]*==ERROR\|^==fuzz sandbox==\|runtime error:\|ERROR: libFuzzer/,/^$/p' \
                "$dir/log" | grep -E '^\s*#[0-9]+ .* in (ccb_|[a-z_]+ /)|ERROR|runtime error' |
                grep -v 'in fuzzer::\|in LLVMFuzzer\|libc_start' | head -12
            echo "fuzz: log: $artifacts/$t.log"
            if [[ -n "$keep" ]]; then
                echo "fuzz: reproducer: $keep"
                echo "fuzz: replay:     $bin $keep"
            fi
        } >&2
        : >"$work/$t.failed"
        line+="  FAILED (fuzzing)"
    fi
    mine=()
    for f in "${regress_failed[@]}"; do
        [[ "$f" == "$t:"* ]] && mine+=("${f#*:}")
    done
    ((${#mine[@]})) && line+="  FAILED (regress: ${mine[*]})"
    echo "$line" >"$work/$t.line"
}

# The targets run side by side, one per core: each is one process on one
# core for its bounded time, so the stage takes its time once per core's
# share of the targets rather than once per target.
par=${CCB_FUZZ_JOBS:-$(nproc)}
[[ "$par" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: CCB_FUZZ_JOBS '$par': expected a whole number" >&2; exit 2; }
for t in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= par)); do wait -n || true; done
    fuzz_one "$t" &
done
wait
failed=()
summary=()
for t in "${targets[@]}"; do
    [[ -f "$work/$t.failed" ]] && failed+=("$t")
    summary+=("$(cat "$work/$t.line" 2>/dev/null || echo "$t  FAILED (no summary: the runner died)")")
    [[ -f "$work/$t.line" ]] || failed+=("$t")
done

echo "== fuzz: summary (${seconds}s per target)" >&2
printf '%s\n' "${summary[@]}" >&2
if ((${#failed[@]})); then
    echo "fuzz: FAILED: ${failed[*]} (reproducers in $artifacts)" >&2
    exit 1
fi
echo "fuzz: all ${#targets[@]} targets clean" >&2
