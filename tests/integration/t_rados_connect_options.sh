# Connecting like the ceph CLIs: the vstart-style conf unchanged (mon host
# [v2:..,v1:..], keyring under [client]), -n/--id/-k, CEPH_ARGS, -o.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

grep -q 'mon host = \[v2:127.0.0.1:[0-9]*,v1:127.0.0.1:[0-9]*\]' "$CEPH_CONF" || fail "conf is not vstart-style"
run() { "$CCBENCH" rados write -p "$POOL" --max-objects 2 -b 64K -q "$@" >/dev/null; }
run
run -n client.admin
run --id admin
# A conf without a keyring line: -k, or CEPH_ARGS, supplies it.
grep -v keyring "$CEPH_CONF" >nokey.conf
expect_rc 1 run -c nokey.conf --connect-timeout 5s
run -c nokey.conf -k "$CLUSTER_DIR/keyring"
CEPH_ARGS="--id admin --keyring $CLUSTER_DIR/keyring" run -c nokey.conf
CEPH_ARGS="--conf $CEPH_CONF" CEPH_CONF= run
# -o takes any librados/librbd option.
run -o rados_osd_op_timeout=30 -o rbd_cache=false
# A different client with its own key.
ceph_cli auth get-or-create client.bench mon 'allow r' osd "allow rw pool=$POOL" >bench.keyring
run --id bench -k bench.keyring
run -n client.bench -k bench.keyring
# ... which may not write elsewhere: a clean error, not a hang.
other=$POOL-other
drop_other() {
	ceph_cli osd pool rm "$other" "$other" --yes-i-really-really-mean-it >/dev/null 2>&1 || true
	ceph_cli auth del client.bench >/dev/null 2>&1 || true
}
on_exit drop_other
ceph_cli osd pool create "$other" 8 >/dev/null 2>&1
# Tagged, as every pool should be: Reef (18.2.1) raises POOL_APP_NOT_ENABLED
# for a pool without an application.
ceph_cli osd pool application enable "$other" rados >/dev/null 2>&1
expect_rc 1 "$CCBENCH" rados write -p "$other" --max-objects 1 -q --id bench -k bench.keyring --op-timeout 5s
[ -z "$(ns_objects)" ] || fail "left: $(ns_objects)"
