#!/usr/bin/env bash
# minicluster.sh - a throwaway, vstart.sh-like Ceph cluster for tests.
#
# Usage:
#   scripts/minicluster.sh start  [--osds N] [--mds] [--osd-mem BYTES|auto]
#                                 [--slow MS] [--msgr2-only] [--bluestore]
#                                 [--size N] [--timeout SECS] [DIR]
#   scripts/minicluster.sh status [DIR]
#   scripts/minicluster.sh stop   [--keep] [DIR]
#   scripts/minicluster.sh osd-stop [--kill] ID [DIR]
#   scripts/minicluster.sh osd-start ID [DIR]
#   scripts/minicluster.sh pool-create NAME [--ec K+M] [--stripe-unit BYTES]
#                                 [--fastec] [--size N] [--pgs N] [DIR]
#   scripts/minicluster.sh pool-rm NAME [DIR]
#
# DIR defaults to ./.cluster.  Everything (config, keyrings, data, logs,
# admin sockets, pid files) lives under DIR; the system /etc/ceph and
# /var/lib/ceph are never used.  The cluster listens on 127.0.0.1 only
# (MINICLUSTER_ADDR=IP: on that address instead, e.g. inside a network
# namespace, started with `ip netns exec NS scripts/minicluster.sh start`):
# 1 mon (msgr v2 + v1 on two free ports; v2 only with --msgr2-only, as
# `ms bind msgr1 = false` clusters are), 1 mgr, N memstore OSDs, pool
# "rbd" (rbd pool init), and with --mds one MDS plus a CephFS "cephfs"
# (pools cephfs_metadata, cephfs_data).  cephx is on.
#
# --size N (start): every pool the cluster makes (rbd, the CephFS pools, the
# mgr's) and every pool made later without a size keeps N copies (min_size
# a majority) instead of 1, so that an OSD killed (SIGKILL: memstore loses
# what it held) recovers from its peers once restarted; with 1 copy its PGs
# would stay stale (the fault tests, issue 42).
#
# --bluestore: the OSDs are bluestore on a sparse file each (DIR/dev/osd.N/
# block, 10 GiB apparent, what they write on disk), as production OSDs are,
# with a small cache: slower to start and to write than memstore, but the
# mon's USED is then what the OSDs allocated (replicas, EC parity), not
# STORED again. For the space tests; --osd-mem does not apply.
#
# `start` prints progress on stderr and, once the cluster is usable, one line
# on stdout:  CEPH_CONF=DIR/ceph.conf
# It also writes DIR/env, a shell file to `source` (exports CEPH_CONF).
# Clients need nothing else: `rados -c DIR/ceph.conf ...` works (the conf
# points to DIR/keyring, which holds client.admin).
#
# `start` refuses a DIR whose cluster runs; on a DIR whose daemons are all
# gone (a crash, or `stop --keep`) it starts a fresh cluster.  It refuses a
# non-empty DIR that it did not make (no DIR/.minicluster file).
#
# `stop` terminates only the daemons of this DIR (by the pids recorded in
# DIR/run/*.pid, or found by their `-c DIR/ceph.conf` argument), then
# removes DIR (unless --keep).  Stopping a stopped or missing cluster is a
# quiet success.  `status` exits 0 only if every daemon runs and `ceph -s`
# answers.
#
# `osd-stop ID` stops osd.ID (TERM: the OSD asks the mon to mark it down,
# which takes effect at once, and memstore saves its objects to DIR/dev;
# --kill: SIGKILL, a crash: peers report it down within ~1 s, and its
# memstore data is lost, so after a restart its PGs stay stale).  Then
# `osd-start ID` starts it again and waits until it is up.  Failure
# detection is tuned for tests: heartbeat grace 6 s, down OSDs marked out
# after 10 s (only while >= 75% of the OSDs stay in: mon_osd_min_in_ratio).
#
# `pool-create NAME` makes a pool for rbd data (application rbd) and waits
# until its PGs are active: replicated of --size N (default 1), or with
# --ec K+M erasure-coded over profile NAME-profile (crush-failure-domain
# osd: the OSDs share one host; stripe_unit 4K unless --stripe-unit) with
# allow_ec_overwrites on (the conf lets memstore OSDs have it), and with
# --fastec allow_ec_optimizations too (Tentacle only: older mons refuse it,
# and so does this command).  `pool-rm NAME` removes the pool and its
# profile.  ccbench never makes nor changes a pool: the harness does.
#
# Daemon pid files: DIR/run/<name>.pid (mon.a, mgr.x, osd.N, mds.a).
# Logs: DIR/log/<name>.log (start's CLI output: DIR/log/setup.log).
# Data: DIR/dev/<name>.
set -euo pipefail

PROG=minicluster
CONNECT_TIMEOUT=10   # passed to every `ceph` call (--connect-timeout)
CMD_TIMEOUT=30       # hard bound (coreutils timeout) on every CLI call
MARKER=.minicluster  # only a DIR holding this file is ever wiped
MON_ID=a
MGR_ID=x
MDS_ID=a
FS_NAME=cephfs

log() { echo "$PROG: $*" >&2; }
die() {
    log "error: $*"
    exit 1
}

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}

# ---------------------------------------------------------------- options
CMD=${1:-}
[[ -n "$CMD" ]] || {
    usage >&2
    exit 2
}
shift
NUM_OSDS=3
WITH_MDS=0
MSGR2_ONLY=0
BLUESTORE=0
OSD_MEM=auto
SLOW_MS=${CCB_SLOW_MS:-0}
TIMEOUT=60
KEEP=0
KILL=0
EC=
STRIPE_UNIT=
FASTEC=0
POOL_SIZE=1
PGS=8
DIR=
POS=()
while (($#)); do
    case "$1" in
    --osds) NUM_OSDS=${2:?--osds needs a number}; shift ;;
    --osds=*) NUM_OSDS=${1#*=} ;;
    --mds) WITH_MDS=1 ;;
    --msgr2-only) MSGR2_ONLY=1 ;;
    --bluestore) BLUESTORE=1 ;;
    --osd-mem) OSD_MEM=${2:?--osd-mem needs a size}; shift ;;
    --osd-mem=*) OSD_MEM=${1#*=} ;;
    --timeout) TIMEOUT=${2:?--timeout needs seconds}; shift ;;
    --slow) SLOW_MS=${2:?--slow needs milliseconds}; shift ;;
    --slow=*) SLOW_MS=${1#*=} ;;
    --timeout=*) TIMEOUT=${1#*=} ;;
    --keep) KEEP=1 ;;
    --kill) KILL=1 ;;
    --ec) EC=${2:?--ec needs K+M}; shift ;;
    --stripe-unit) STRIPE_UNIT=${2:?--stripe-unit needs bytes}; shift ;;
    --fastec) FASTEC=1 ;;
    --size) POOL_SIZE=${2:?--size needs a number}; shift ;;
    --pgs) PGS=${2:?--pgs needs a number}; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) die "unknown option: $1 (see --help)" ;;
    *) POS+=("$1") ;;
    esac
    shift
done
OSD_ID=
case "$CMD" in
start | stop | status)
    ((${#POS[@]} <= 1)) || die "only one DIR may be given"
    DIR=${POS[0]:-}
    ;;
osd-stop | osd-start)
    ((${#POS[@]} >= 1 && ${#POS[@]} <= 2)) || die "usage: $0 $CMD ID [DIR]"
    OSD_ID=${POS[0]}
    DIR=${POS[1]:-}
    [[ "$OSD_ID" =~ ^[0-9]+$ ]] || die "bad OSD id '$OSD_ID'"
    ;;
pool-create | pool-rm)
    ((${#POS[@]} >= 1 && ${#POS[@]} <= 2)) || die "usage: $0 $CMD NAME [options] [DIR]"
    POOL_NAME=${POS[0]}
    DIR=${POS[1]:-}
    [[ "$POOL_NAME" =~ ^[A-Za-z0-9_.-]{1,64}$ ]] || die "bad pool name '$POOL_NAME'"
    [[ -z "$EC" || "$EC" =~ ^[1-9][0-9]?\+[1-9][0-9]?$ ]] || die "bad --ec '$EC' (K+M, e.g. 2+1)"
    [[ -z "$STRIPE_UNIT" || "$STRIPE_UNIT" =~ ^[0-9]+[KkMm]?$ ]] || die "bad --stripe-unit '$STRIPE_UNIT'"
    [[ "$POOL_SIZE" =~ ^[1-9]$ && "$PGS" =~ ^[1-9][0-9]{0,3}$ ]] || die "bad --size or --pgs"
    ((!FASTEC)) || [[ -n "$EC" ]] || die "--fastec needs --ec K+M"
    ;;
-h | --help | help) usage; exit 0 ;;
*) die "unknown command: $CMD (expected start, stop, status, osd-stop, osd-start, pool-create or pool-rm)" ;;
esac
[[ "$NUM_OSDS" =~ ^[1-9][0-9]*$ ]] || die "--osds must be a positive integer"
[[ "$POOL_SIZE" =~ ^[1-9]$ ]] || die "--size must be 1 to 9"
ADDR=${MINICLUSTER_ADDR:-127.0.0.1}
[[ "$ADDR" =~ ^[0-9]{1,3}(\.[0-9]{1,3}){3}$ ]] || die "MINICLUSTER_ADDR '$ADDR': not an IPv4 address"
[[ "$TIMEOUT" =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive integer"
[[ "$SLOW_MS" =~ ^[0-9]+$ ]] || die "--slow must be a whole number of milliseconds"
# Memstore keeps every object in RAM. "auto" (the default) gives each OSD
# half of the memory available now, shared out, within [1G, 8G]: a fast
# machine writes GiBs in seconds, and a fixed 2G per OSD filled up mid-run
# there, while a small machine must not be pushed into swap or the OOM killer.
if [[ "$OSD_MEM" == auto ]]; then
    avail_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)
    OSD_MEM_BYTES=$((avail_kb * 1024 / 2 / NUM_OSDS))
    ((OSD_MEM_BYTES >= 1 << 30)) || OSD_MEM_BYTES=$((1 << 30))
    ((OSD_MEM_BYTES <= 8 << 30)) || OSD_MEM_BYTES=$((8 << 30))
else
    OSD_MEM=${OSD_MEM%B}
    OSD_MEM_BYTES=$(numfmt --from=iec "${OSD_MEM%i}" 2>/dev/null) ||
        die "--osd-mem: bad size '$OSD_MEM' (e.g. 2147483648, 512M, 2G, auto)"
    ((OSD_MEM_BYTES >= 64 * 1024 * 1024)) || die "--osd-mem: at least 64M"
fi

DIR=$(realpath -m -- "${DIR:-./.cluster}")
[[ "$DIR" != / ]] || die "refusing to use / as the cluster directory"
CONF=$DIR/ceph.conf
RUN=$DIR/run
LOGD=$DIR/log
DEV=$DIR/dev
SETUP_LOG=$LOGD/setup.log # output of the CLI calls made by start

# ---------------------------------------------------------------- helpers
# Every ceph CLI call is bounded twice: --connect-timeout for the mon
# connection, coreutils timeout for the whole command.
cephc() {
    timeout "$CMD_TIMEOUT" ceph -c "$CONF" --connect-timeout "$CONNECT_TIMEOUT" "$@" 9>&-
}

# is_ours PID: PID is a live ceph daemon started with `-c $CONF`.
is_ours() {
    local pid=$1 arg0
    [[ "$pid" =~ ^[0-9]+$ && -r /proc/$pid/cmdline ]] || return 1
    local -a argv=()
    { mapfile -d '' -t argv <"/proc/$pid/cmdline"; } 2>/dev/null || return 1
    ((${#argv[@]})) || return 1 # zombie or kernel thread
    arg0=${argv[0]##*/}
    case "$arg0" in ceph-mon | ceph-osd | ceph-mgr | ceph-mds) ;; *) return 1 ;; esac
    local a
    for a in "${argv[@]}"; do
        [[ "$a" == "$CONF" ]] && return 0
    done
    return 1
}

# daemon_pid NAME: print the pid of daemon NAME if it is running.
daemon_pid() {
    local f=$RUN/$1.pid pid
    [[ -r "$f" ]] || return 1
    pid=$(cat -- "$f" 2>/dev/null) || return 1
    pid=${pid//[^0-9]/}
    is_ours "$pid" || return 1
    echo "$pid"
}

# our_pids: pids of every running daemon of this cluster: the recorded pid
# files plus any ceph daemon whose command line names our ceph.conf (covers
# a daemon that died before writing, or after removing, its pid file).
our_pids() {
    local f pid p
    local -A seen=()
    if [[ -d "$RUN" ]]; then
        for f in "$RUN"/*.pid; do
            [[ -e "$f" ]] || continue
            pid=$(cat -- "$f" 2>/dev/null) || continue
            pid=${pid//[^0-9]/}
            if is_ours "$pid" && [[ -z "${seen[$pid]:-}" ]]; then
                seen[$pid]=1
                echo "$pid"
            fi
        done
    fi
    for p in /proc/[0-9]*; do
        pid=${p#/proc/}
        if [[ -z "${seen[$pid]:-}" ]] && is_ours "$pid"; then
            seen[$pid]=1
            echo "$pid"
        fi
    done
}

# alive_of PID...: print those of the given pids that are still ours.
alive_of() {
    local p
    for p in "$@"; do is_ours "$p" && echo "$p"; done
    return 0
}

# term_wait LIMIT PID...: TERM the pids, wait while any lives and the global
# tick counter KILL_TICK (0.1 s each) is below LIMIT.
KILL_TICK=0
term_wait() {
    local limit=$1 alive=()
    shift
    (($#)) || return 0
    kill -TERM "$@" 2>/dev/null || true
    for (( ; KILL_TICK < limit; KILL_TICK++)); do
        mapfile -t alive < <(alive_of "$@")
        ((${#alive[@]})) || return 0
        sleep 0.1
    done
}

# kill_ours: TERM our daemons, wait (10 s in all), then KILL the rest.
# In order: MDS (it flushes its journal to the OSDs), OSDs (they ask the
# mon to mark them down, and wait 5 s if it is gone; memstore saves its
# data to DIR/dev so a TERMed OSD can be restarted), then mgr and mon.
kill_ours() {
    local -a pids mds=() osd=() mon=() alive=()
    local p kind i
    mapfile -t pids < <(our_pids)
    ((${#pids[@]})) || return 0
    log "stopping ${#pids[@]} daemon(s): ${pids[*]}"
    for p in "${pids[@]}"; do
        kind=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline" | head -n 1) || true
        case "${kind##*/}" in
        ceph-mds) mds+=("$p") ;;
        ceph-mon | ceph-mgr) mon+=("$p") ;;
        *) osd+=("$p") ;;
        esac
    done
    KILL_TICK=0
    term_wait 30 "${mds[@]}"
    # An MDS often takes 5-10 s to exit after TERM (it waits on its mon and
    # OSD sessions).  Its state is thrown away unless --keep: KILL it.
    if ((!KEEP)); then
        mapfile -t alive < <(alive_of "${mds[@]}")
        ((${#alive[@]} == 0)) || kill -KILL "${alive[@]}" 2>/dev/null || true
    fi
    term_wait 80 "${osd[@]}"
    term_wait 100 "${mon[@]}"
    mapfile -t alive < <(alive_of "${pids[@]}")
    ((${#alive[@]})) || return 0
    log "still running after 10 s, sending KILL: ${alive[*]}"
    kill -KILL "${alive[@]}" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
        mapfile -t alive < <(alive_of "${pids[@]}")
        ((${#alive[@]})) || return 0
        sleep 0.1
    done
    log "warning: could not kill: ${alive[*]}"
    return 1
}

# lock: serialise start/stop/status on one DIR (fd 9, closed for daemons).
lock() {
    exec 9>"$DIR/.lock"
    flock -w 120 9 || die "$DIR is locked by another $PROG command"
}

show_log() { # show_log NAME: last lines of a daemon's log
    local f=$LOGD/$1.log
    if [[ -s "$f" ]]; then
        log "---- last lines of $f ----"
        tail -n 25 "$f" >&2 || true
    fi
    f=$LOGD/$1.stderr
    if [[ -s "$f" ]]; then
        log "---- $f ----"
        tail -n 10 "$f" >&2 || true
    fi
}

# free_ports N: print N distinct free TCP ports in 10000..32767 (below the
# Linux ephemeral range and away from ceph's 6800-7300 daemon range).
free_ports() {
    local n=$1 p
    local -A used=()
    while read -r p; do
        used[${p##*:}]=1
    done < <(ss -Htan 2>/dev/null | awk '{print $4}')
    local -a out=()
    while ((${#out[@]} < n)); do
        p=$((10000 + (RANDOM * 32768 + RANDOM) % 22768))
        [[ -z "${used[$p]:-}" ]] || continue
        used[$p]=1
        out+=("$p")
    done
    echo "${out[@]}"
}

gen_uuid() { cat /proc/sys/kernel/random/uuid; }

# run_daemon NAME CMD...: start a (self-daemonizing) ceph daemon; its own
# stdout/stderr go to DIR/log/NAME.stderr, never to our stdout.
run_daemon() {
    local name=$1
    shift
    "$@" -c "$CONF" </dev/null >>"$LOGD/$name.stderr" 2>&1 9>&-
}

# wait_pidfile NAME: the daemon wrote its pid file and is alive.
wait_pidfile() {
    local i
    for ((i = 0; i < 100; i++)); do
        daemon_pid "$1" >/dev/null && return 0
        sleep 0.1
    done
    return 1
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }

# ---------------------------------------------------------------- config
# class_dir: where the OSDs load their object classes (cls_rbd, cls_lock...)
# from, as an absolute path.  Reef's and Tentacle's Debian packages build
# the default relative (lib/x86_64-linux-gnu/rados-classes), which an OSD
# resolves against its working directory: started anywhere but /, it cannot
# load cls_rbd ("_load_class could not stat class") and every rbd call
# fails with "Operation not supported".  Ask the installed release for its
# default and anchor it at / (or /usr), where its libcls_rbd.so is.
class_dir() {
    local d c
    d=$(ceph-conf -c /dev/null --show-config-value osd_class_dir 2>/dev/null) || d=
    [[ -n "$d" ]] || d=lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/rados-classes
    if [[ "$d" != /* ]]; then
        for c in "/$d" "/usr/$d"; do
            if [[ -e "$c/libcls_rbd.so" ]]; then
                d=$c
                break
            fi
        done
        [[ "$d" == /* ]] || d=/$d
    fi
    [[ -e "$d/libcls_rbd.so" ]] ||
        log "warning: no libcls_rbd.so in $d (osd class dir): rbd will not work"
    echo "$d"
}

# mgr_python_path: a directory for the mgr's PYTHONPATH, or nothing.  The
# mgr runs each module in a Python sub-interpreter, and Reef's mgr_util.py
# (which every module imports) has `import bcrypt` at the top; Debian 13's
# python3-bcrypt 4.x is a Rust (PyO3) build, which refuses to load in a
# sub-interpreter ("PyO3 modules do not yet support subinterpreters"), so
# every mgr module failed to load and the cluster started in HEALTH_WARN
# (MGR_MODULE_DEPENDENCY: 11 modules, status among them: no `ceph fs
# status`).  mgr_util uses bcrypt only to hash dashboard passwords, which a
# throwaway cluster never sets: when (and only when) both hold, the mgr
# gets a bcrypt that loads, and fails if it is ever called.  Tentacle's
# mgr_util no longer imports it at the top; Pacific's bcrypt 3.2 is C.
mgr_python_path() {
    local mod so
    mod=$(ceph-conf -c /dev/null --show-config-value mgr_module_path 2>/dev/null) || return 0
    grep -qx 'import bcrypt' "$mod/mgr_util.py" 2>/dev/null || return 0
    so=$(python3 -c 'import bcrypt._bcrypt as m; print(m.__file__)' 2>/dev/null) || return 0
    grep -qa 'support subinterpreters' "$so" 2>/dev/null || return 0
    mkdir -p "$DIR/mgr-python"
    cat >"$DIR/mgr-python/bcrypt.py" <<'EOF'
"""minicluster.sh's stand-in for python3-bcrypt in the throwaway mgr: the
real one (PyO3) cannot load in the mgr's sub-interpreters.  Only the
dashboard's passwords use it; a throwaway cluster has none."""


def _unavailable(*args, **kwargs):
    raise RuntimeError("bcrypt is not available in minicluster.sh's mgr")


gensalt = hashpw = checkpw = kdf = _unavailable
EOF
    echo "$DIR/mgr-python"
}

# mon_addrs V2PORT V1PORT: the mon's address vector (v2 only with --msgr2-only).
mon_addrs() {
    if ((MSGR2_ONLY)); then
        echo "[v2:$ADDR:$1]"
    else
        echo "[v2:$ADDR:$1,v1:$ADDR:$2]"
    fi
}

write_conf() { # write_conf FSID V2PORT V1PORT
    local fsid=$1 p2=$2 p1=$3
    cat >"$CONF.tmp" <<EOF
; generated by scripts/minicluster.sh - throwaway test cluster
[global]
	fsid = $fsid
	mon host = $(mon_addrs "$p2" "$p1")
	public addr = $ADDR
	cluster addr = $ADDR
	public network = $ADDR/32
	ms bind ipv4 = true
	ms bind ipv6 = false
	ms bind msgr1 = $( ((MSGR2_ONLY)) && echo false || echo true)
	ms bind msgr2 = true
	auth cluster required = cephx
	auth service required = cephx
	auth client required = cephx
	auth allow insecure global id reclaim = false
	run dir = $RUN
	crash dir = $DIR/crash
	; small, fast, single-host, single-replica pools (start --size N: N copies)
	osd pool default size = $POOL_SIZE
	osd pool default min size = $((POOL_SIZE - POOL_SIZE / 2))
	mon allow pool size one = true
	mon allow pool delete = true
	; rbd on an erasure-coded data pool needs allow_ec_overwrites, which the
	; mon grants only on bluestore OSDs unless told not to check (these are
	; memstore): `ec-pool` below
	mon debug no require bluestore for ec overwrites = true
	; 32 PGs a pool, so that data spreads evenly over the OSDs: with 8, one
	; OSD filled long before the others
	osd pool default pg num = 32
	osd pool default pgp num = 32
	osd pool default pg autoscale mode = off
	mon max pg per osd = 1000
	osd crush chooseleaf type = 0
	mon osd full ratio = .99
	mon osd nearfull ratio = .99
	mon osd backfillfull ratio = .99
	osd failsafe full ratio = .99
	; quiet health for a test cluster
	mon warn on pool no redundancy = false
	mon warn on insecure global id reclaim allowed = false
	mon data avail warn = 2
	mon data avail crit = 1
	; fast failure detection (tests stop OSDs mid-run)
	osd heartbeat interval = 1
	osd heartbeat grace = 6
	mon osd adjust heartbeat grace = false
	mon osd adjust down out interval = false
	mon osd down out interval = 10
	mon osd min down reporters = 1
	mon osd reporter subtree level = osd
	; tests freeze OSDs (SIGSTOP) past the grace again and again: an OSD
	; marked down more than 5 times in 10 min would shut itself down
	osd max markdown count = 1000
	osd beacon report interval = 5
	mon osd report timeout = 20
	; TERM = clean OSD shutdown: it has the mon mark it down at once, and
	; memstore saves its objects to disk, so the OSD restarts with its data
	osd fast shutdown = false
	osd fast shutdown notify mon = true
	; fresh stats for ceph df / pool quotas
	mgr stats period = 1
	mgr tick period = 1
	mgr initial modules = iostat
	; do not even load (python import) modules a test cluster never needs:
	; the mgr becomes available ~3 s sooner
	mgr disabled modules = alerts cephadm dashboard diskprediction_local influx insights k8sevents localpool mirroring nfs osd_support prometheus restful rook selftest snap_schedule stats telegraf test_orchestrator zabbix
[mon]
	mon data = $DEV/\$name
	keyring = $DEV/\$name/keyring
	log file = $LOGD/\$name.log
	admin socket = $RUN/\$name.asok
	pid file = $RUN/\$name.pid
	mon cluster log file = $LOGD/cluster.log
	ms bind retry count = 1
	ms bind retry delay = 1
	; propose map changes every 0.1 s instead of 1 s: each pool create,
	; OSD boot, rbd pool init step... waits for one proposal
	paxos propose interval = 0.1
[mgr]
	mgr data = $DEV/\$name
	keyring = $DEV/\$name/keyring
	log file = $LOGD/\$name.log
	admin socket = $RUN/\$name.asok
	pid file = $RUN/\$name.pid
[osd]
	osd data = $DEV/\$name
	keyring = $DEV/\$name/keyring
	log file = $LOGD/\$name.log
	admin socket = $RUN/\$name.asok
	pid file = $RUN/\$name.pid
	osd class dir = $CLASS_DIR
$(if ((BLUESTORE)); then
	printf '\t; --bluestore: a sparse file per OSD; a small cache, no fsck, no discard\n'
	printf '\tosd objectstore = bluestore\n\tbluestore block create = true\n'
	printf '\tbluestore block size = 10737418240\n\tbluestore fsck on mount = false\n'
	printf '\tbluestore cache autotune = false\n\tbluestore cache size = 67108864\n'
	printf '\tbdev enable discard = false\n'
else
	printf '\tosd objectstore = memstore\n\tmemstore device bytes = %s\n' "$OSD_MEM_BYTES"
fi)
	osd memory target = 939524096
	osd op complaint time = 5
	osd check max object name len on startup = false
$( ((SLOW_MS)) && printf '\t; --slow: the slow end of the speed range. Each OSD delays every message\n\t; it gets from a client (librados, librbd, libcephfs, the kernel) by up\n\t; to %s ms.\n\tms inject delay type = client\n\tms inject delay max = %s\n\tms inject delay probability = 1\n' "$SLOW_MS" "$(awk -v m="$SLOW_MS" 'BEGIN {printf "%g", m / 1000}')")
[mds]
	mds data = $DEV/\$name
	keyring = $DEV/\$name/keyring
	log file = $LOGD/\$name.log
	admin socket = $RUN/\$name.asok
	pid file = $RUN/\$name.pid
	mds beacon interval = 1
	mds cache memory limit = 268435456
[client]
	keyring = $DIR/keyring
EOF
    mv -f "$CONF.tmp" "$CONF"
}

# ---------------------------------------------------------------- start
START_OK=0
start_cleanup() {
    ((START_OK)) && return 0
    log "start failed; stopping the daemons already started (logs kept in $LOGD;" \
        "'$0 stop $DIR' removes it)"
    kill_ours || true
}

start_mon() { # tries new ports if the chosen ones were taken meanwhile
    local fsid=$1 attempt p2 p1
    for attempt in 1 2 3; do
        read -r p2 p1 <<<"$(free_ports 2)"
        write_conf "$fsid" "$p2" "$p1"
        rm -rf "$DEV/mon.$MON_ID" "$DIR/monmap"
        monmaptool --create --clobber --fsid "$fsid" --enable-all-features \
            --addv "$MON_ID" "$(mon_addrs "$p2" "$p1")" \
            "$DIR/monmap" >/dev/null
        ceph-mon -c "$CONF" -i "$MON_ID" --mkfs --monmap "$DIR/monmap" \
            --keyring "$DEV/seed.keyring" >>"$LOGD/mon.$MON_ID.stderr" 2>&1 ||
            {
                show_log "mon.$MON_ID"
                die "ceph-mon --mkfs failed"
            }
        if run_daemon "mon.$MON_ID" ceph-mon -i "$MON_ID"; then
            if ((MSGR2_ONLY)); then
                log "mon.$MON_ID listening on $ADDR:$p2 (v2 only: --msgr2-only)"
            else
                log "mon.$MON_ID listening on $ADDR:$p2 (v2), $ADDR:$p1 (v1)"
            fi
            return 0
        fi
        log "ceph-mon failed to start (attempt $attempt; port in use?)"
    done
    show_log "mon.$MON_ID"
    die "could not start ceph-mon"
}

# mc_py OP ARGS...: mon commands and waits through one librados connection
# (python3-rados, which the ceph CLI itself runs on).  Each `ceph` CLI call
# costs ~0.4 s of CPU, several seconds when they run alongside the starting
# daemons on a 2-core machine; this does all of start's setup in ~0.2 s.
#   batch                 run the JSON mon commands read from stdin, one a
#                         line ("_inbuf": JSON object sent as input)
#   wait-osds N SECS      until N OSDs are up and in
#   wait-osd-up ID SECS   until osd.ID is up
#   wait-mgr SECS         until the mgr is available
#   wait-mds FS SECS      until FS has an active MDS
# Exit: 0 ok, 1 command failed, 2 timeout, 3 cannot connect.
# Like --connect-timeout for the CLI: connect bounded to CONNECT_TIMEOUT s,
# every mon command to CMD_TIMEOUT s (rados_mon_op_timeout).
read -r -d '' MC_PY <<'PY' || true
import json, sys, time
try:
    import rados
except ImportError as e:
    print("minicluster: python3-rados is missing (%s): it comes with "
          "ceph-common; see scripts/deps.sh" % e, file=sys.stderr)
    sys.exit(3)

conf, op, args = sys.argv[1], sys.argv[2], sys.argv[3:]
connect_timeout, cmd_timeout = sys.argv[-2:]
args = args[:-2]


def err(msg):
    print("minicluster: " + msg, file=sys.stderr, flush=True)


try:
    c = rados.Rados(conffile=conf, conf={"client_mount_timeout": connect_timeout,
                                         "rados_mon_op_timeout": cmd_timeout})
    c.connect(timeout=int(connect_timeout))
except Exception as e:
    err("cannot connect to the cluster: %s" % e)
    sys.exit(3)


def mon_json(cmd):
    cmd = dict(cmd, format="json")
    ret, out, outs = c.mon_command(json.dumps(cmd), b"")
    if ret != 0:
        raise RuntimeError("%s: %s (%d)" % (cmd["prefix"], outs.strip(), ret))
    return json.loads(out)


def wait(what, timeout, check):
    deadline = time.monotonic() + timeout
    last = "no answer"
    while True:
        try:
            ok, last = check()
        except Exception as e:  # e.g. mon busy: try again
            ok, last = False, str(e)
        if ok:
            return 0
        if time.monotonic() >= deadline:
            err("timeout after %g s waiting for %s (last: %s)" % (timeout, what, last))
            return 2
        time.sleep(0.2)


rc = 0
if op == "batch":
    for line in sys.stdin:
        if not line.strip():
            continue
        cmd = json.loads(line)
        inbuf = cmd.pop("_inbuf", None)
        inbuf = json.dumps(inbuf).encode() if inbuf is not None else b""
        ret, out, outs = c.mon_command(json.dumps(cmd), inbuf)
        print("%s -> %d %s %s" % (json.dumps(cmd), ret, outs.strip(),
                                  out.decode(errors="replace").strip()), flush=True)
        if ret != 0:
            err("'%s' failed: %s (%d)" % (cmd["prefix"], outs.strip(), ret))
            rc = 1
            break
elif op == "wait-osds":
    n, t = int(args[0]), float(args[1])

    def check():
        s = mon_json({"prefix": "osd stat"})
        up, inn = s["num_up_osds"], s["num_in_osds"]
        return up == n and inn == n, "%d/%d up, %d in" % (up, n, inn)
    rc = wait("%d OSD(s) up and in" % n, t, check)
elif op == "wait-osd-up":
    osd = int(args[0])

    def check():
        osds = mon_json({"prefix": "osd dump"})["osds"]
        up = [o["up"] for o in osds if o["osd"] == osd]
        return up == [1], "osd.%d up=%s" % (osd, up)
    rc = wait("osd.%d to be up" % osd, float(args[1]), check)
elif op == "wait-pool-active":
    pool = args[0]

    def check():
        pgs = mon_json({"prefix": "pg ls-by-pool", "poolstr": pool})
        pgs = pgs.get("pg_stats", pgs) if isinstance(pgs, dict) else pgs
        states = [p["state"] for p in pgs]
        ok = states and all("active" in s and "peering" not in s for s in states)
        return ok, "%d PGs: %s" % (len(states), sorted(set(states)))
    rc = wait("the PGs of pool %s to be active" % pool, float(args[1]), check)
elif op == "wait-mgr":
    def check():
        s = mon_json({"prefix": "mgr stat"})
        return bool(s.get("available")), json.dumps(s)
    rc = wait("the mgr to be available", float(args[0]), check)
elif op == "wait-mds":
    fs = args[0]

    def check():
        info = mon_json({"prefix": "fs get", "fs_name": fs})["mdsmap"]["info"]
        states = [i["state"] for i in info.values()]
        return "up:active" in states, "mds states %s" % states
    rc = wait("an active MDS for %s" % fs, float(args[1]), check)
else:
    err("mc_py: unknown op " + op)
    rc = 1
c.shutdown()
sys.exit(rc)
PY

mc_py() {
    local py
    # The interpreter the ceph CLI runs on has python3-rados.
    py=$(sed -n '1s/^#! *//p' "$(command -v ceph)" 2>/dev/null)
    [[ "$py" == /*python3* && -x "${py%% *}" ]] || py=python3
    # shellcheck disable=SC2086 # $py may be "/usr/bin/env python3"
    timeout $((CMD_TIMEOUT + TIMEOUT + 30)) $py -c "$MC_PY" "$CONF" "$@" \
        "$CONNECT_TIMEOUT" "$CMD_TIMEOUT" 9>&-
}

do_start() {
    local t0
    t0=$(now)
    if [[ -e "$DIR" && ! -d "$DIR" ]]; then
        die "$DIR exists and is not a directory"
    fi
    if [[ -d "$DIR" && ! -e "$DIR/$MARKER" ]] && [[ -n "$(ls -A "$DIR")" ]]; then
        die "$DIR exists, is not empty and was not made by $PROG; refusing to use it"
    fi
    mkdir -p "$DIR"
    touch "$DIR/$MARKER"
    lock
    if [[ -n "$(our_pids)" ]]; then
        die "a cluster is already running in $DIR (use '$0 stop $DIR' first)"
    fi
    # Leftovers of a dead cluster: wipe everything but marker and lock.
    find "$DIR" -mindepth 1 -maxdepth 1 ! -name "$MARKER" ! -name .lock \
        -exec rm -rf {} +
    mkdir -p "$RUN" "$LOGD" "$DEV" "$DIR/crash"
    trap start_cleanup EXIT

    local fsid i
    fsid=$(gen_uuid)
    local -a daemons=("mon.$MON_ID" "mgr.$MGR_ID")
    for ((i = 0; i < NUM_OSDS; i++)); do daemons+=("osd.$i"); done
    ((WITH_MDS)) && daemons+=("mds.$MDS_ID")
    printf '%s\n' "${daemons[@]}" >"$DIR/daemons"

    # Keys. DIR/keyring: client.admin only (what clients read).
    # dev/seed.keyring: every key the mon imports at mkfs (mon., admin, mgr, mds).
    local k
    ceph-authtool --create-keyring "$DIR/keyring" --gen-key -n client.admin \
        --cap mon 'allow *' --cap osd 'allow *' --cap mds 'allow *' \
        --cap mgr 'allow *' >/dev/null
    cp "$DIR/keyring" "$DEV/seed.keyring"
    ceph-authtool "$DEV/seed.keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
    k=$(ceph-authtool --gen-print-key)
    mkdir -p "$DEV/mgr.$MGR_ID"
    ceph-authtool --create-keyring "$DEV/mgr.$MGR_ID/keyring" -n "mgr.$MGR_ID" \
        --add-key "$k" >/dev/null
    ceph-authtool "$DEV/seed.keyring" -n "mgr.$MGR_ID" --add-key "$k" \
        --cap mon 'allow profile mgr' --cap mds 'allow *' --cap osd 'allow *' >/dev/null
    if ((WITH_MDS)); then
        k=$(ceph-authtool --gen-print-key)
        mkdir -p "$DEV/mds.$MDS_ID"
        ceph-authtool --create-keyring "$DEV/mds.$MDS_ID/keyring" -n "mds.$MDS_ID" \
            --add-key "$k" >/dev/null
        ceph-authtool "$DEV/seed.keyring" -n "mds.$MDS_ID" --add-key "$k" \
            --cap mon 'allow profile mds' --cap osd 'allow *' --cap mds 'allow' \
            --cap mgr 'allow profile mds' >/dev/null
    fi
    chmod 600 "$DIR/keyring" "$DEV/seed.keyring"

    CLASS_DIR=$(class_dir)
    start_mon "$fsid"
    # Env file for test scripts.
    {
        printf 'export CEPH_CONF=%q\n' "$CONF"
        printf 'export MINICLUSTER_DIR=%q\n' "$DIR"
    } >"$DIR/env"

    # The mgr needs ~5 s to load its modules: start it first, wait last.
    local mgr_py
    mgr_py=$(mgr_python_path)
    [[ -z "$mgr_py" ]] ||
        log "mgr: python3-bcrypt cannot load in the mgr's sub-interpreters: a stand-in in $mgr_py"
    run_daemon "mgr.$MGR_ID" env ${mgr_py:+PYTHONPATH="$mgr_py"} ceph-mgr -i "$MGR_ID" ||
        {
            show_log "mgr.$MGR_ID"
            die "ceph-mgr failed to start"
        }

    # Register the OSDs (ceph osd new with their cephx keys), create the
    # pools and the CephFS: one batch of mon commands.  PGs get created as
    # soon as the OSDs boot.
    local -a uuids=()
    local batch="" key
    for ((i = 0; i < NUM_OSDS; i++)); do
        mkdir -p "$DEV/osd.$i"
        uuids[i]=$(gen_uuid)
        key=$(ceph-authtool --gen-print-key)
        ceph-authtool --create-keyring "$DEV/osd.$i/keyring" -n "osd.$i" \
            --add-key "$key" >/dev/null
        batch+=$(printf '{"prefix": "osd new", "uuid": "%s", "id": %d, "_inbuf": {"cephx_secret": "%s"}}' \
            "${uuids[i]}" "$i" "$key")$'\n'
    done
    batch+='{"prefix": "osd pool create", "pool": "rbd"}'$'\n'
    if ((WITH_MDS)); then
        batch+='{"prefix": "osd pool create", "pool": "cephfs_metadata"}'$'\n'
        batch+='{"prefix": "osd pool create", "pool": "cephfs_data"}'$'\n'
        batch+='{"prefix": "fs new", "fs_name": "'$FS_NAME'", "metadata": "cephfs_metadata", "data": "cephfs_data"}'$'\n'
    fi
    mc_py batch <<<"$batch" >>"$SETUP_LOG" 2>&1 || {
        tail -n 5 "$SETUP_LOG" >&2
        die "registering the OSDs / creating the pools failed"
    }

    # mkfs and start the OSDs, in parallel.
    local -a jobs=()
    local j
    for ((i = 0; i < NUM_OSDS; i++)); do
        (
            timeout 60 ceph-osd -c "$CONF" -i "$i" --mkfs --osd-uuid "${uuids[i]}" \
                </dev/null >>"$LOGD/osd.$i.stderr" 2>&1 9>&- ||
                {
                    log "ceph-osd --mkfs failed for osd.$i"
                    exit 1
                }
            timeout 60 ceph-osd -c "$CONF" -i "$i" \
                </dev/null >>"$LOGD/osd.$i.stderr" 2>&1 9>&- ||
                {
                    log "ceph-osd failed to start for osd.$i"
                    exit 1
                }
        ) &
        jobs+=($!)
    done
    if ((WITH_MDS)); then
        run_daemon "mds.$MDS_ID" ceph-mds -i "$MDS_ID" ||
            {
                show_log "mds.$MDS_ID"
                die "ceph-mds failed to start"
            }
    fi
    local failed=0
    for ((j = 0; j < ${#jobs[@]}; j++)); do
        wait "${jobs[$j]}" || {
            show_log "osd.$j"
            failed=1
        }
    done
    ((failed == 0)) || die "could not create/start all OSDs"
    log "started ${NUM_OSDS} OSD(s) in $(elapsed "$t0") s; waiting for them to be up"

    # Wait for all OSDs up and in.
    if ! mc_py wait-osds "$NUM_OSDS" "$TIMEOUT"; then
        cephc osd tree >&2 2>/dev/null || true
        local -a down=()
        mapfile -t down < <(cephc osd dump -f json 2>/dev/null |
            jq -r '.osds[] | select(.up == 0) | .osd' 2>/dev/null)
        ((${#down[@]})) || mapfile -t down < <(seq 0 $((NUM_OSDS - 1)))
        for i in "${down[@]}"; do
            if daemon_pid "osd.$i" >/dev/null; then
                log "osd.$i is running but not up"
            else
                log "osd.$i is not running"
            fi
            show_log "osd.$i"
        done
        die "OSDs did not come up"
    fi
    log "all $NUM_OSDS OSD(s) up and in ($(elapsed "$t0") s)"

    # rbd pool init (needs active PGs) while the mgr finishes loading.
    timeout "$TIMEOUT" rbd -c "$CONF" --client_mount_timeout "$CONNECT_TIMEOUT" \
        pool init rbd </dev/null >>"$SETUP_LOG" 2>&1 9>&- &
    local rbd_job=$!

    # mgr: ceph df and pool quotas need it available.
    local mgr_timeout=30
    ((mgr_timeout < TIMEOUT)) || mgr_timeout=$TIMEOUT
    mc_py wait-mgr "$mgr_timeout" || {
        kill "$rbd_job" 2>/dev/null || true
        show_log "mgr.$MGR_ID"
        die "mgr.$MGR_ID not available after $mgr_timeout s"
    }
    log "mgr.$MGR_ID available ($(elapsed "$t0") s)"

    wait "$rbd_job" || {
        tail -n 5 "$SETUP_LOG" >&2
        die "rbd pool init rbd failed"
    }
    log "pool rbd initialised ($(elapsed "$t0") s)"

    if ((WITH_MDS)); then
        mc_py wait-mds "$FS_NAME" "$TIMEOUT" || {
            cephc fs status >&2 2>/dev/null || true
            show_log "mds.$MDS_ID"
            die "mds.$MDS_ID not active after $TIMEOUT s"
        }
        log "mds.$MDS_ID active, CephFS '$FS_NAME' ready ($(elapsed "$t0") s)"
    fi

    for i in "${daemons[@]}"; do
        wait_pidfile "$i" || {
            show_log "$i"
            die "$i is not running"
        }
    done
    START_OK=1
    trap - EXIT
    log "cluster ready in $(elapsed "$t0") s: ${daemons[*]}"
    if ((BLUESTORE)); then
        log "bluestore: a sparse 10 GiB file per OSD (--bluestore)"
    else
        log "memstore: $((OSD_MEM_BYTES >> 20)) MiB per OSD (--osd-mem)"
    fi
    ((SLOW_MS)) && log "slowed: OSDs delay client messages by up to $SLOW_MS ms (--slow)"
    log "  source $DIR/env   or   export CEPH_CONF=$CONF"
    echo "CEPH_CONF=$CONF"
}

# ---------------------------------------------------------------- stop
do_stop() {
    [[ -d "$DIR" ]] || return 0
    if [[ ! -e "$DIR/$MARKER" ]]; then
        [[ -z "$(ls -A "$DIR")" ]] && return 0
        die "$DIR was not made by $PROG (no $MARKER file); not touching it"
    fi
    lock
    kill_ours || die "some daemons of $DIR could not be killed"
    if ((KEEP)); then
        rm -f "$RUN"/*.pid "$RUN"/*.asok
        log "stopped; kept $DIR"
    else
        rm -rf "$DIR"
    fi
}

# ---------------------------------------------------------------- status
do_status() {
    if [[ ! -e "$DIR/$MARKER" || ! -f "$DIR/daemons" ]]; then
        echo "no cluster in $DIR"
        return 3
    fi
    local rc=0 name pid
    while read -r name; do
        [[ -n "$name" ]] || continue
        if pid=$(daemon_pid "$name"); then
            printf '%-8s running (pid %s)\n' "$name" "$pid"
        else
            printf '%-8s NOT running\n' "$name"
            rc=1
        fi
    done <"$DIR/daemons"
    echo "CEPH_CONF=$CONF"
    if ! daemon_pid "mon.$MON_ID" >/dev/null; then
        echo "mon.$MON_ID is not running: no ceph -s"
        rc=1
    elif ! cephc -s; then
        echo "ceph -s failed" >&2
        rc=1
    fi
    return "$rc"
}

# ---------------------------------------------------------------- osd-stop/start
need_cluster() {
    [[ -e "$DIR/$MARKER" && -f "$CONF" ]] || die "no cluster in $DIR"
    grep -qx "osd.$OSD_ID" "$DIR/daemons" 2>/dev/null || die "no osd.$OSD_ID in $DIR"
}

do_osd_stop() {
    need_cluster
    local pid i
    pid=$(daemon_pid "osd.$OSD_ID") || {
        log "osd.$OSD_ID is not running"
        return 0
    }
    if ((KILL)); then
        kill -KILL "$pid" 2>/dev/null || true
    else
        kill -TERM "$pid" 2>/dev/null || true
    fi
    for ((i = 0; i < 100; i++)); do
        is_ours "$pid" || {
            log "osd.$OSD_ID (pid $pid) stopped"
            return 0
        }
        sleep 0.1
    done
    log "osd.$OSD_ID still running after 10 s: KILL"
    kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
        is_ours "$pid" || return 0
        sleep 0.1
    done
    die "could not stop osd.$OSD_ID (pid $pid)"
}

do_osd_start() {
    need_cluster
    if daemon_pid "osd.$OSD_ID" >/dev/null; then
        die "osd.$OSD_ID is already running"
    fi
    timeout 60 ceph-osd -c "$CONF" -i "$OSD_ID" \
        </dev/null >>"$LOGD/osd.$OSD_ID.stderr" 2>&1 9>&- || {
        show_log "osd.$OSD_ID"
        die "ceph-osd failed to start for osd.$OSD_ID"
    }
    mc_py wait-osd-up "$OSD_ID" "$TIMEOUT" || {
        show_log "osd.$OSD_ID"
        die "osd.$OSD_ID did not come up"
    }
    log "osd.$OSD_ID up"
}

# ---------------------------------------------------------------- pools
do_pool_create() {
    [[ -e "$DIR/$MARKER" && -f "$CONF" ]] || die "no cluster in $DIR"
    local k m su=${STRIPE_UNIT:-4096}
    case "$su" in
    *[Kk]) su=$((${su%?} * 1024)) ;;
    *[Mm]) su=$((${su%?} * 1048576)) ;;
    esac
    {
        if [[ -n "$EC" ]]; then
            k=${EC%+*} m=${EC#*+}
            printf '{"prefix": "osd erasure-code-profile set", "name": "%s-profile", "profile": ["k=%s", "m=%s", "crush-failure-domain=osd", "stripe_unit=%s"]}\n' \
                "$POOL_NAME" "$k" "$m" "$su"
            printf '{"prefix": "osd pool create", "pool": "%s", "pg_num": %s, "pgp_num": %s, "pool_type": "erasure", "erasure_code_profile": "%s-profile"}\n' \
                "$POOL_NAME" "$PGS" "$PGS" "$POOL_NAME"
            printf '{"prefix": "osd pool set", "pool": "%s", "var": "allow_ec_overwrites", "val": "true"}\n' "$POOL_NAME"
            ((FASTEC)) && printf '{"prefix": "osd pool set", "pool": "%s", "var": "allow_ec_optimizations", "val": "true"}\n' "$POOL_NAME"
        else
            printf '{"prefix": "osd pool create", "pool": "%s", "pg_num": %s, "pgp_num": %s, "pool_type": "replicated"}\n' \
                "$POOL_NAME" "$PGS" "$PGS"
            printf '{"prefix": "osd pool set", "pool": "%s", "var": "size", "val": "%s", "yes_i_really_mean_it": true}\n' \
                "$POOL_NAME" "$POOL_SIZE"
            # Ceph's default for a size: a majority of the copies.
            printf '{"prefix": "osd pool set", "pool": "%s", "var": "min_size", "val": "%s"}\n' \
                "$POOL_NAME" "$((POOL_SIZE - POOL_SIZE / 2))"
        fi
        printf '{"prefix": "osd pool application enable", "pool": "%s", "app": "rbd"}\n' "$POOL_NAME"
    } | mc_py batch >>"$SETUP_LOG" || {
        log "pool-create $POOL_NAME failed (see $SETUP_LOG); removing what was made"
        do_pool_rm
        exit 1
    }
    mc_py wait-pool-active "$POOL_NAME" "$TIMEOUT" || die "pool $POOL_NAME: PGs not active"
    if [[ -n "$EC" ]]; then
        log "pool $POOL_NAME made (EC $EC$( ((FASTEC)) && echo ', FastEC'))"
    else
        log "pool $POOL_NAME made (replicated size $POOL_SIZE)"
    fi
}

do_pool_rm() {
    [[ -e "$DIR/$MARKER" && -f "$CONF" ]] || die "no cluster in $DIR"
    printf '{"prefix": "osd pool rm", "pool": "%s", "pool2": "%s", "yes_i_really_really_mean_it": true}\n' \
        "$POOL_NAME" "$POOL_NAME" | mc_py batch >>"$SETUP_LOG" 2>&1 || true
    # An EC pool's CRUSH rule is named after it, made with it, left by its removal.
    printf '{"prefix": "osd crush rule rm", "name": "%s"}\n{"prefix": "osd erasure-code-profile rm", "name": "%s-profile"}\n' \
        "$POOL_NAME" "$POOL_NAME" | mc_py batch >>"$SETUP_LOG" 2>&1 || true
}

case "$CMD" in
pool-create) do_pool_create ;;
pool-rm) do_pool_rm ;;
osd-stop) do_osd_stop ;;
osd-start) do_osd_start ;;
start) do_start ;;
stop) do_stop ;;
status) do_status ;;
esac
