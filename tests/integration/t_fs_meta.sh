# fs meta: bonnie++ -n semantics. Every phase of both blocks (Sequential
# Create, Random Create: create, stat+read, delete) reports ops/s and a
# latency distribution, the counts match the spec, the text view is the
# bonnie-like table, and the run's directory is gone afterwards (also
# after Ctrl-C in the middle of a phase).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs_lib.sh"

# 1:4k:1k:4 = 1024 files of 1K to 4K over 4 directories.
"$CCBENCH" fs meta -q -n 1:4k:1k:4 -f json >m.json || fail "fs meta"
jcheck m.json 'd["status"] == "ok"' 'd["path"] == "cephfs"' 'd["command"] == "fs meta"' \
	'd["files"] == {"spec": "1:4k:1k:4", "count": 1024, "max_bytes": 4096, "min_bytes": 1024, "dirs": 4}' \
	'[(p["name"], p["order"]) for p in d["phases"]] == [(n, o) for o in ("sequential", "random") for n in ("create", "read", "delete")]' \
	'all(p["ops"] == 1024 and p["complete"] for p in d["phases"])' \
	'all(p["ops_per_s"] > 0 and p["seconds"] > 0 for p in d["phases"])' \
	'all(p["latency_us"]["n"] == 1024 and 0 < p["latency_us"]["p50"] <= p["latency_us"]["p99"] <= p["latency_us"]["max"] * 1.01 for p in d["phases"])' \
	'all(1024 * 1024 <= p["bytes"] <= 4096 * 1024 for p in d["phases"] if p["name"] != "delete")' \
	'd["ops"] == 6 * 1024 and d["errors"] == 0' \
	'd["phases"][0]["bytes"] == d["phases"][1]["bytes"]'
[ -z "$(fs_root_ccbench)" ] || fail "meta left $(fs_root_ccbench)"

# Empty files (MAX 0), all in one directory, text output: bonnie's columns.
"$CCBENCH" fs meta -q -n 1 --dir /ccbt-meta >m.txt || fail "fs meta text"
grep -q "Sequential Create" m.txt || fail "no bonnie table: $(cat m.txt)"
grep -q -- "-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--" m.txt || fail "columns"
grep -qE "^/sec( +[0-9]+){6}$" m.txt || fail "/sec row: $(cat m.txt)"
grep -qE "^latency p99( +[0-9]+(us|ms)){6}$" m.txt || fail "latency row"
grep -qE "^files( +1024){6}$" m.txt || fail "files row"
[ ! -e "$FSMNT/ccbt-meta" ] || fail "--dir /ccbt-meta left behind"

# --keep keeps the (by then empty) tree; the meta phases delete their files.
"$CCBENCH" fs meta -q -n 1:0:0:3 --dir /ccbt-meta --keep -f json >k.json || fail "--keep"
[ "$(ls "$FSMNT/ccbt-meta/meta")" = "$(printf 'd00000\nd00001\nd00002')" ] ||
	fail "kept tree: $(ls -R "$FSMNT/ccbt-meta")"
rm -rf "${FSMNT:?}/ccbt-meta"

# Ctrl-C in the middle of a phase: partial phases, exit 130, tree removed.
"$CCBENCH" fs meta -n 16 -f json >s.json 2>s.err &
pid=$!
wait_grep s.err "sec"
sleep 1
signal_wait $pid INT 130 60 s.err
jcheck s.json 'd["status"] == "interrupted"' 'not d["phases"][-1]["complete"]' \
	'0 < sum(p["ops"] for p in d["phases"]) < 6 * 16384'
[ -z "$(fs_root_ccbench)" ] || fail "SIGINT left $(fs_root_ccbench)"
echo "fs meta: ok"
