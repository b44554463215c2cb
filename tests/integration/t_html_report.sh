# The HTML page of each kind of result (issue 44), from real runs, looked
# at in a real browser (headless Chromium through Selenium,
# html_check.py): a run, a sweep of 15 series whose names are hostile
# (markup, an ampersand, an escape character), a capacity search with its
# closed-loop curve, a group report of two members, and a compare. Each
# page has no text outside its charts nor on another text, legends whose
# entries all differ, no horizontal scrolling at 1280 px, no browser
# error, no script and nothing fetched; its screenshot is kept beside it
# (named in a note). The page of a saved result is byte-identical whether
# the run wrote it or `ccbench report` did. About 2 minutes (120 s in a
# lane on the loaded 2-core machine; the browser's part about 10 s).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
check=$(dirname "$0")/html_check.py
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && $py -c 'import selenium' ||
	fail "needs chromium, chromium-driver and python3-selenium (scripts/deps.sh)"

same() { # same A B: the two pages byte for byte
	cmp -s "$1" "$2" || fail "$1 and $2 differ: $(diff "$1" "$2" | head -5)"
}

# --html obeys the output rules: a FIFO (its reader, or none, would hold
# the run) is refused before the cluster is touched, as --json's is.
mkfifo fifo.html
expect_refused --one "a FIFO" "$CCBENCH" rados write -p "$POOL" -d 1s --html fifo.html
expect_refused --one "a FIFO" "$CCBENCH" compare /dev/null /dev/null --html fifo.html

# A run: its page, and the same page from its saved result.
"$CCBENCH" rados write -p "$POOL" -d 2s -b 64K -t 4 -q -f json --output run.json --html run.html
"$CCBENCH" report run.json --html run-report.html >/dev/null
same run.html run-report.html
grep -q '<div class="answer"><div>rados write: [0-9.]* MiB/s' run.html || fail "run: no answer line"

# A sweep of 15 series (3 namespaces x 5 depths, one 1-s point each); the
# namespaces are names a reader must see as they are, escaped.
cat >sweep.json <<'CFG'
{"name": "html <15 series> & more", "command": "rados write",
 "params": {"op-size": "4K", "duration": "1s"},
 "matrix": {"clients": [1], "namespace": ["ns<a>", "ns&b", "ns\u001bc"],
            "queue-depth": [1, 2, 4, 8, 16]}, "repeat": 1}
CFG
"$CCBENCH" sweep sweep.json -p "$POOL" -q --json sweep-doc.json --html sweep.html >sweep.txt
"$CCBENCH" report sweep-doc.json --html sweep-report.html >/dev/null
same sweep.html sweep-report.html
[ "$(jget sweep-doc.json 'len(d["points"])')" = 15 ] || fail "sweep: not 15 points"
grep -q 'ns&lt;a&gt;' sweep.html && grep -q 'ns&amp;b' sweep.html && grep -q 'ns\\x1bc' sweep.html ||
	fail "sweep: the namespaces are not there escaped"
for ns in 'ns<a>' 'ns&b' $'ns\x1bc'; do
	[ -z "$(ns_objects "$ns")" ] || fail "objects left in namespace $ns"
done

# A capacity search: short steps, its closed-loop probe curve on the chart.
"$CCBENCH" capacity rados write -p "$POOL" -b 4K --max-in-flight 4 --osd-latency 50ms \
	--slo 'p99<=500ms' --step-time 1s --precision 20% -q --json cap.json --html cap.html \
	>cap.txt || [ $? = 1 ] || fail "capacity: exit $?"
"$CCBENCH" report cap.json --html cap-report.html >/dev/null || [ $? = 1 ]
same cap.html cap-report.html
jcheck cap.json 'len(d["closed_loop"]) >= 2'
grep -q 'closed loop p99' cap.html || fail "capacity: no closed-loop curve on the chart"

# A group of two members, its report's page, and the same from the saved report.
G=ghtml$$
on_exit sh -c '"$0" group rm "$1" --group-pool "$2" >/dev/null 2>&1' "$CCBENCH" "$G" "$POOL"
pids=()
for i in 1 2; do
	"$CCBENCH" rados write -p "$POOL" -d 2s -b 64K -t 2 --group "$G" --members 2 \
		--group-timeout 30s -q -f json >m$i.json 2>m$i.err &
	pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || fail "a member failed: $(cat m*.err)"
done
"$CCBENCH" group report "$G" --group-pool "$POOL" -f json --html group.html >group.json
"$CCBENCH" report group.json --html group-report.html >/dev/null
same group.html group-report.html

# A compare: the sweep against itself halved, a regression at every point.
jget sweep-doc.json 'json.dumps(dict(d, points=[dict(p, aggregate=dict(p["aggregate"],
	bandwidth_mib_s=dict(p["aggregate"]["bandwidth_mib_s"],
	mean=p["aggregate"]["bandwidth_mib_s"]["mean"] / 2))) for p in d["points"]]))' >halved.json
expect_rc 1 "$CCBENCH" compare sweep-doc.json halved.json --html compare.html >compare.txt
grep -q '15 of 15 points regressed' compare.html || fail "compare: no summary line"

t0=$SECONDS
$py "$check" --shots "$PWD" run.html sweep.html cap.html group.html compare.html >check.txt ||
	fail "in the browser: $(grep FAIL check.txt | head -10)"
cat check.txt
for p in run sweep cap group compare; do
	echo "note: screenshot $PWD/$p.html.png (kept with CCB_IT_KEEP=1)"
done
if [ -n "${CCB_HTML_SHOTS:-}" ]; then
	cp ./*.html ./*.html.png "$CCB_HTML_SHOTS"/
fi
echo "note: 5 pages checked in Chromium in $((SECONDS - t0)) s"
