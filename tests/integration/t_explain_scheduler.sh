# explain reads the OSD scheduler, side by side under two settings, on a
# cluster of the test's own (1 OSD; its scheduler settings need an OSD
# restart on Pacific, and Reef does not apply every change at run time
# either): the release's default queue (wpq on Pacific 16, mClock
# "balanced" from Reef 18), then mClock high_client_ops against the custom
# profile with a client limit of about 100 IOPS on the OSD, 4K writes
# under each. The limited run stays under its limit (the cluster enforces
# it, whatever this machine's speed) and explain says so and names
# osd_mclock_profile=high_client_ops; the other does not. About 50 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

own_cluster sched
export CEPH_CONF=$OWN_CONF
ceph_cli osd pool create sched 16 >/dev/null 2>&1
ceph_cli osd pool application enable sched rados >/dev/null 2>&1

whys() { jget "$1" '"\n".join(e["kind"] + " " + e["severity"] + ": " + e["text"] for e in d["explain"] if e["kind"] == "scheduler")'; }
run() { # run NAME: 4K writes, 3 s, as JSON in NAME.json
	"$CCBENCH" rados write -p sched -b 4K -t 16 -d 3s -q -f json >"$1.json" || fail "$1: exit $?"
	echo "note: $1: $(jget "$1.json" 'round(d["iops"])') IOPS; $(whys "$1.json")"
}

# The release's default.
run default
default_queue=$(jget default.json 'd["cluster_state"]["start"]["osd_scheduler"]["osd_op_queue"]')
major=$(jget default.json 'd["releases"]["cluster"]["ceph_versions"][0].split(".")[0]')
if [ "$major" -ge 17 ]; then
	[ "$default_queue" = mclock_scheduler ] || fail "release $major: default queue $default_queue"
	whys default.json | gq "info: OSD op queue mClock, profile balanced" ||
		fail "no balanced line: $(whys default.json)"
else
	[ "$default_queue" = wpq ] || fail "release $major: default queue $default_queue"
	whys default.json | gq "info: OSD op queue wpq" || fail "no wpq line: $(whys default.json)"
fi

# Setting A: mClock, high_client_ops.
ceph_cli config set osd osd_op_queue mclock_scheduler
ceph_cli config set osd osd_mclock_profile high_client_ops
own_osd_restart
run high_client_ops
jcheck high_client_ops.json \
	"d['cluster_state']['start']['osd_scheduler']['mclock']['profile'] == 'high_client_ops'" \
	"'client_limit_iops' not in d['cluster_state']['start']['osd_scheduler']['mclock']"
whys high_client_ops.json | gq "limits client I/O" && fail "high_client_ops read as a limit"

# Setting B: custom, a client limit of about 100 IOPS on the OSD, in the
# unit of this release (IOPS per op shard, or a share of the capacity).
lim=$(jget high_client_ops.json '(lambda m: "%.6f" % (100 / m["capacity_iops"]) if m["qos_unit"] == "capacity_share" else str(max(1, round(100 / m["shards"]))))(d["cluster_state"]["start"]["osd_scheduler"]["mclock"])')
ceph_cli config set osd osd_mclock_profile custom
ceph_cli config set osd osd_mclock_scheduler_client_lim "$lim"
own_osd_restart
run custom
limit=$(jget custom.json 'd["cluster_state"]["start"]["osd_scheduler"]["mclock"]["client_limit_iops"]')
jcheck custom.json "80 <= $limit <= 125" \
	"d['iops'] <= 2 * $limit" \
	"any(e['kind'] == 'scheduler' and e['severity'] == 'warn' and 'limits client I/O' in e['text'] and 'osd_mclock_profile=high_client_ops' in e['text'] for e in d['explain'])"
# Derived from the saved result alone.
line=$(jget custom.json '[e["text"] for e in d["explain"] if e["kind"] == "scheduler"][0]')
"$CCBENCH" explain custom.json | gq -F "warning: $line" || fail "explain custom.json: not the stored line"
echo "note: side by side: high_client_ops $(jget high_client_ops.json 'round(d["iops"])') IOPS, custom with osd_mclock_scheduler_client_lim=$lim (limit $limit IOPS) $(jget custom.json 'round(d["iops"])') IOPS"
