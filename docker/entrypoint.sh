#!/usr/bin/env bash
# Entrypoint of the ccbench image: runs `ccbench "$@"`.
#
# With CCB_MINICLUSTER=1, and no cluster given (no CEPH_CONF, no -c/--conf
# argument, none in CEPH_ARGS), it first starts a throwaway cluster with
# scripts/minicluster.sh in $CCB_CLUSTER_DIR (default /tmp/cluster), points
# ccbench at it with CEPH_CONF, and stops it when ccbench exits (or the
# container is stopped).  CCB_MINICLUSTER_ARGS adds start options, e.g.
# "--mds --osds 1".  No cluster is started for --help / --version.

# shellcheck disable=SC2317 # stop_cluster and on_signal only run from traps
set -euo pipefail

top=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
ccbench=${CCBENCH:-}
if [[ -z "$ccbench" ]]; then
    if command -v ccbench >/dev/null 2>&1; then
        ccbench=ccbench
    else
        ccbench=$top/build/ccbench
    fi
fi

log() { echo "entrypoint: $*" >&2; }

# `ci CONFIG ...`: the CI mode (sweep, results in /results, baseline gate).
if [[ "${1:-}" == ci ]]; then
    shift
    exec "$top/docker/ci.sh" "$@"
fi

# conf_given ARGS...: a cluster configuration is named on the command line
# or in CEPH_ARGS.
conf_given() {
    local a
    local -a env_args=()
    read -ra env_args <<<"${CEPH_ARGS:-}"
    for a in "$@" "${env_args[@]}"; do
        case "$a" in
        --) break ;;
        -c | -c?* | --conf | --conf=*) return 0 ;;
        esac
    done
    return 1
}

# info_only ARGS...: only help or version asked (no cluster needed).
info_only() {
    (($# == 0)) && return 0
    [[ "$1" == help ]] && return 0
    local a
    for a in "$@"; do
        case "$a" in
        --) break ;;
        -h | --help | --version) return 0 ;;
        esac
    done
    return 1
}

if [[ "${CCB_MINICLUSTER:-0}" != 1 || -n "${CEPH_CONF:-}" ]] ||
    conf_given "$@" || info_only "$@"; then
    exec "$ccbench" "$@"
fi

cluster=${CCB_CLUSTER_DIR:-/tmp/cluster}
child=

stop_cluster() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -n "$child" ]] && kill -0 "$child" 2>/dev/null; then
        kill -TERM "$child" 2>/dev/null || true
        wait "$child" 2>/dev/null || true
    fi
    "$top/scripts/minicluster.sh" stop "$cluster" >&2 || log "stopping the cluster failed"
    exit "$rc"
}
trap stop_cluster EXIT

# Forward INT/TERM (docker stop) to ccbench, which cleans up and exits;
# before ccbench runs, just exit (the EXIT trap stops the cluster).
on_signal() {
    local sig=$1
    if [[ -n "$child" ]]; then
        kill "-$sig" "$child" 2>/dev/null || true
    else
        exit $((128 + $(kill -l "$sig")))
    fi
}
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM

log "starting a throwaway Ceph cluster in $cluster"
# shellcheck disable=SC2086 # CCB_MINICLUSTER_ARGS is a list of options
"$top/scripts/minicluster.sh" start ${CCB_MINICLUSTER_ARGS:-} "$cluster" >/dev/null
export CEPH_CONF=$cluster/ceph.conf

# In the background so that signals reach on_signal while it runs; stdin
# stays the container's.
"$ccbench" "$@" <&0 &
child=$!
rc=0
while :; do
    if wait "$child"; then rc=0; else rc=$?; fi
    # wait returns >128 when a trapped signal interrupted it: wait again
    # (bash keeps the status of an exited child) until ccbench has exited.
    ((rc > 128)) || break
    kill -0 "$child" 2>/dev/null && continue
    if wait "$child" 2>/dev/null; then rc=0; else rc=$?; fi
    break
done
child=
exit "$rc"
