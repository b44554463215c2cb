#!/usr/bin/python3
"""The integration runner's cluster queries, one connection per call.

run.sh asks the cluster the same things around every test: make the test's
pool, wait for its PGs, list what a test could leave (objects of the shared
pools, ccbench's config-keys, the OSDs' delay overrides, images), remove
the pool. Through the ceph CLI that is a dozen interpreter starts and mon
connections per test, about 4 s on a quiet machine and 15 s on a loaded
one; through librados in one process, a fraction of a second. Every query
keeps the CLI's meaning and output lines (run.sh's snapshot format), and a
query that fails prints nothing for its part, as `2>/dev/null` did.

usage: itq.py pre POOL         make POOL (32 PGs, application rados); print
                               "suspect ID KB_USED KB" per OSD that looks
                               full, then "pgs clean" or "pgs unclean"
                               (after waiting up to 20 s)
       itq.py snap [after]     the cluster's lines of run.sh's snapshot
       itq.py own POOL         POOL's objects (any namespace) but rbd's
                               bookkeeping, at most 5
       itq.py post POOL        remove POOL; print the suspect OSDs
       itq.py images           the images of pool rbd, one a line
Environment: CEPH_CONF, POOL (left out of the shared pools).
"""
import json
import os
import re
import sys
import time

import rados

BOOKKEEPING = re.compile(r"^rbd_(directory|trash|info|children|mirroring|namespace)$")
# Pools that change by themselves (health metrics, the MDS journal), and
# the test's own, which is checked apart.
NOT_SHARED = {"device_health_metrics", ".mgr", "cephfs_metadata"}


def connect():
    r = rados.Rados(conffile=os.environ.get("CEPH_CONF", ""))
    r.conf_set("rados_osd_op_timeout", "20")
    r.conf_set("rados_mon_op_timeout", "20")
    r.connect(timeout=10)
    return r


def mon(r, prefix, **kw):
    kw.update(prefix=prefix, format="json")
    rc, out, err = r.mon_command(json.dumps(kw), b"", timeout=20)
    if rc != 0:
        raise OSError(-rc, err)
    return json.loads(out) if out else None


def mgr(r, prefix, **kw):
    kw.update(prefix=prefix, format="json")
    rc, out, err = r.mgr_command(json.dumps(kw), b"", timeout=20)
    if rc != 0:
        raise OSError(-rc, err)
    return json.loads(out) if out else None


def suspects(r):
    """OSDs that report more used than their size, or over 80 %: memstore's
    miscount after a pool delete (run.sh restarts them)."""
    try:
        for n in mgr(r, "osd df").get("nodes", []):
            if n.get("kb", 0) and (n.get("kb_used", 0) > n["kb"] or n.get("utilization", 0) > 80):
                print("suspect %s %s %s" % (n["id"], n.get("kb_used", 0), n["kb"]))
    except Exception:
        pass


def pgs_clean(r):
    ok = {"active", "clean", "scrubbing", "deep", "snaptrim", "snaptrim_wait"}
    d = mgr(r, "pg ls")
    pgs = d.get("pg_stats", []) if isinstance(d, dict) else d
    for p in pgs:
        parts = set(p.get("state", "").split("+"))
        if not ({"active", "clean"} <= parts and parts <= ok):
            return False
    return True


def objects(r, pool, limit=None):
    out = []
    with r.open_ioctx(pool) as io:
        io.set_namespace(rados.LIBRADOS_ALL_NSPACES)
        for o in io.list_objects():
            if o.nspace == "" and BOOKKEEPING.match(o.key):
                continue
            out.append((o.nspace, o.key))
            if limit and len(out) >= limit:
                break
    return out


def cmd_pre(r, pool):
    try:
        mon(r, "osd pool create", pool=pool, pg_num=32)
        mon(r, "osd pool application enable", pool=pool, app="rados")
    except Exception:
        pass
    suspects(r)
    clean = False
    deadline = time.monotonic() + 20
    while True:
        try:
            clean = pgs_clean(r)
        except Exception:
            clean = False
        if clean or time.monotonic() > deadline:
            break
        time.sleep(0.25)
    print("pgs " + ("clean" if clean else "unclean"))


def cmd_snap(r, after):
    me = os.environ.get("POOL", "")
    try:
        pools = sorted(p for p in mon(r, "osd pool ls") if p not in NOT_SHARED and p != me)
    except Exception:
        pools = []
    for p in pools:
        print("pool " + p)
        try:
            for ns, key in objects(r, p):
                print("object %s/%s\t%s" % (p, ns, key))
        except Exception:
            pass
    try:
        for k in mon(r, "config-key ls"):
            if isinstance(k, str) and k.startswith("ccbench/"):
                print("config_key " + k)
    except Exception:
        pass
    if not after:
        return
    # Run-time overrides of the OSDs' delay injection (--osd-latency).
    try:
        ids = mon(r, "osd ls")
    except Exception:
        ids = []
    for i in ids:
        try:
            rc, out, _ = r.osd_command(i, json.dumps({"prefix": "config diff", "format": "json"}), b"", timeout=20)
            diff = json.loads(out).get("diff", {}) if rc == 0 else {}
        except Exception:
            continue
        for k, v in sorted(diff.items()):
            if k.startswith("ms_inject_delay") and isinstance(v, dict) and "override" in v:
                print("osd_config osd.%s %s=%s" % (i, k, v["override"]))


def cmd_own(r, pool):
    try:
        for _, key in objects(r, pool, limit=5):
            print(key)
    except Exception:
        pass


def cmd_post(r, pool):
    try:
        mon(r, "osd pool rm", pool=pool, pool2=pool, yes_i_really_really_mean_it=True)
    except Exception:
        pass
    suspects(r)


def cmd_images(r):
    import rbd

    try:
        with r.open_ioctx("rbd") as io:
            for name in rbd.RBD().list(io):
                print(name)
    except Exception:
        pass


def main(argv):
    if not argv or argv[0] not in ("pre", "snap", "own", "post", "images"):
        sys.exit("usage: itq.py pre|snap|own|post|images [POOL|after]")
    try:
        r = connect()
    except Exception as e:
        # A cluster that does not answer: nothing to list, as with the CLI.
        print("itq: cannot connect: %s" % e, file=sys.stderr)
        if argv[0] == "pre":
            print("pgs unclean")
        return 0
    try:
        if argv[0] == "pre":
            cmd_pre(r, argv[1])
        elif argv[0] == "snap":
            cmd_snap(r, len(argv) > 1 and argv[1] == "after")
        elif argv[0] == "own":
            cmd_own(r, argv[1])
        elif argv[0] == "post":
            cmd_post(r, argv[1])
        else:
            cmd_images(r)
    finally:
        r.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
