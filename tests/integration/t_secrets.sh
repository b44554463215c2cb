# Key material in a sweep config (params "set": "key=KEY", the real
# client.admin key, so the runs connect), its points run through a runner
# (a script that runs this host's ccbench, as `ssh HOST ccbench` would):
# - while the sweep runs, the key is on no process's command line (every
#   /proc/*/cmdline, polled) and in no file of the state directory;
# - after it: not in the state directory, stdout, stderr, --json, --csv,
#   --svg nor --output; the runner saw --secrets-stdin, not the key;
# - the key does reach the runner's ccbench: a wrong key in the config
#   fails its connection (the keyring in ceph.conf alone would pass);
# - a runner that does not give ccbench its stdin: that ccbench says so
#   (exit 2), nothing leaks; a runner command with key material in it is
#   refused before anything runs (exit 2), its key not echoed.
# About 10 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

d=$(mktemp -d "$PWD/secrets.XXXXXX")
cd "$d"
KEY=$(ceph-authtool -p -n client.admin "$CLUSTER_DIR/keyring")
[ -n "$KEY" ] || fail "no client.admin key in $CLUSTER_DIR/keyring"
# grep -f: the key never on grep's own command line.
(umask 077 && printf '%s\n' "$KEY" >key.pat)
holds_key() { grep -alF -f "$d/key.pat" "$@" 2>/dev/null; }

cat >runner.sh <<EOF
#!/bin/bash
printf '%s\n' "\$*" >>"$d/runner.log"
exec "$CCBENCH" "\$@"
EOF
chmod +x runner.sh
cfg() { # cfg KEY RUNNER: a two-point sweep config, its points through RUNNER
	cat <<EOF
{"command": "rados write", "params": {"op-size": "64K", "duration": "1s", "set": "key=$1", "pool": "$POOL",
 "connect-timeout": "10s"}, "matrix": {"clients": [1, 2]}, "runners": {"rados": "$2"}}
EOF
}
(umask 077 && cfg "$KEY" "$d/runner.sh" >cfg.json)

# ---- 1. the sweep, its command lines polled ------------------------------------
"$CCBENCH" sweep cfg.json -p "$POOL" --json s.json --csv s.csv --svg s.svg -f json \
	--output s.result.json >s.out 2>s.err &
sweep=$!
polls=0 seen_runner=0
: >hits
while kill -0 "$sweep" 2>/dev/null; do
	holds_key /proc/[0-9]*/cmdline >>hits || true
	holds_key -r "$CCB_STATE_DIR" >>hits || true
	if grep -alF ccbench-runner /proc/[0-9]*/cmdline >/dev/null 2>&1; then
		seen_runner=$((seen_runner + 1))
	fi
	polls=$((polls + 1))
	sleep 0.1
done
rc=0
wait "$sweep" || rc=$?
[ "$rc" = 0 ] || fail "sweep: exit $rc: $(tail -5 s.err)"
[ ! -s hits ] || fail "the key was readable during the sweep in: $(sort -u hits | tr '\n' ' ')"
[ "$seen_runner" -ge 2 ] || fail "only $seen_runner of $polls polls saw a runner running"
for f in s.json s.csv s.svg s.result.json s.err runner.log; do
	[ -s "$f" ] || fail "$f: empty or missing"
done
! holds_key s.json s.csv s.svg s.result.json s.out s.err runner.log ||
	fail "the key in: $(holds_key s.json s.csv s.svg s.result.json s.out s.err runner.log)"
! holds_key -r "$CCB_STATE_DIR" || fail "the key in the state directory: $(holds_key -r "$CCB_STATE_DIR")"
[ "$(grep -c -- '--secrets-stdin' runner.log)" = 2 ] || fail "runner: $(cat runner.log)"
jcheck s.json 'all(r["status"] == "ok" for p in d["points"] for r in p["runs"])' \
	'all("runner" in r for p in d["points"] for r in p["runs"])' \
	'"key=<redacted>" in json.dumps(d)'
echo "note: $polls polls of every /proc/*/cmdline, $seen_runner with a runner running"

# ---- 2. a wrong key reaches the runner's ccbench: its connection fails -----------
WRONG=AQAA8VNlAAAAABAAAAECAwQFBgcICQoLDA0ODw==
(umask 077 && cfg "$WRONG" "$d/runner.sh" >wrong.json)
rc=0
"$CCBENCH" sweep wrong.json -p "$POOL" --param clients=1 --json w.json >w.out 2>w.err || rc=$?
[ "$rc" = 1 ] || fail "a wrong key: exit $rc, not 1: $(tail -5 w.err)"
jcheck w.json 'd["points"][0]["runs"][0]["status"] != "ok"'
! grep -qF "$WRONG" w.json w.out w.err || fail "the wrong key printed: $(grep -F "$WRONG" w.json w.out w.err | head -2)"

# ---- 3. a runner that drops stdin (ssh -n): refused by its ccbench ---------------
printf '#!/bin/bash\nexec "%s" "$@" </dev/null\n' "$CCBENCH" >nostdin.sh
chmod +x nostdin.sh
rc=0
"$CCBENCH" sweep cfg.json -p "$POOL" --param clients=1 --runner "rados=$d/nostdin.sh" \
	--json n.json >n.out 2>n.err || rc=$?
[ "$rc" = 2 ] || fail "a runner without stdin: exit $rc, not 2: $(tail -5 n.err)"
grep -q -- "--secrets-stdin: nothing on stdin" n.err || fail "no reason from the runner's ccbench: $(cat n.err)"
! holds_key n.json n.out n.err || fail "the key in the no-stdin sweep's output"

# ---- 4. a runner command that carries a key: refused before anything runs --------
(umask 077 && cfg "$KEY" "$d/runner.sh -o key=$KEY" >badrunner.json)
expect_refused --within 5 "carries key material" "$CCBENCH" sweep badrunner.json -p "$POOL"
! holds_key refused.out refused.err || fail "the refusal printed the key: $(cat refused.err)"
[ -z "$(ns_objects)" ] || fail "objects left: $(ns_objects | head -3)"
