/*
 * The option table: one row per option, in designated fields (as fio's
 * options.c writes them), so a row says what each value is. A choice's
 * valid values are data (.choices), read by the parser, --help, the man
 * page and the completion alike. The parsers are in options.c.
 *
 * The rows here are the ones several paths share (the connection, the
 * engine, the image layout) and the ones of the commands above the paths
 * (group, sweep, report, output). A path's own rows live with the path,
 * in its *_commands.c, as fio's engines carry theirs; its registry row
 * (src/paths/registry.c) hands them to ccb_opt_table_build() at start-up,
 * which puts the one table together in the order --help shows: the
 * shared rows, each path's own, then the late ones.
 */
#include <ccbench/option_rows.h>
#include <ccbench/options.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shared by several paths' commands, and the engine's: first in --help. */
static const struct ccb_opt_desc shared_rows[] = {
    {.name = "conf",
     .short_name = 'c',
     .type = CCB_OPT_STR,
     .offset = OFF(conf),
     .cmds = CONN,
     .argname = "PATH",
     .help = "ceph.conf (default: $CEPH_CONF, else /etc/ceph/$cluster.conf)"},
    {.name = "cluster",
     .type = CCB_OPT_STR,
     .offset = OFF(cluster),
     .def = "ceph",
     .cmds = CONN,
     .argname = "NAME",
     .help = "cluster name"},
    {.name = "name",
     .short_name = 'n',
     .type = CCB_OPT_STR,
     .offset = OFF(name),
     .cmds = CONN,
     .argname = "TYPE.ID",
     .help = "client name (default client.admin)"},
    {.name = "id",
     .short_name = 'i',
     .type = CCB_OPT_STR,
     .offset = OFF(id),
     .cmds = CONN,
     .argname = "ID",
     .help = "client id (client.ID)"},
    {.name = "keyring",
     .short_name = 'k',
     .type = CCB_OPT_STR,
     .offset = OFF(keyring),
     .cmds = CONN,
     .argname = "PATH",
     .help = "keyring file"},
    {.name = "set",
     .short_name = 'o',
     .type = CCB_OPT_SET,
     .offset = OFF(sets),
     .cmds = CONN,
     .argname = "KEY=VALUE",
     .help = "set any librados/librbd option (repeatable)"},
    {.name = "pool",
     .short_name = 'p',
     .type = CCB_OPT_STR,
     .offset = OFF(pool),
     .cmds = CCB_CAP_POOL | CLEANUP | SWEEP | GROUP,
     .argname = "POOL",
     .help = "pool to use (rbd: default rbd)"},
    {.name = "namespace",
     .short_name = 'N',
     .type = CCB_OPT_STR,
     .offset = OFF(rados_namespace),
     .def = "ccbench",
     .cmds = CCB_CAP_OBJECTS | CLEANUP,
     .argname = "NS",
     .help = "RADOS namespace of the run's objects"},
    {.name = "connect-timeout",
     .type = CCB_OPT_DURATION,
     .offset = OFF(connect_timeout_usec),
     .def = "30s",
     .min = 1000000,
     .max = 3600000000ull,
     .cmds = CONN,
     .argname = "DUR",
     .help = "give up connecting after DUR"},
    {.name = "op-timeout",
     .type = CCB_OPT_DURATION,
     .offset = OFF(op_timeout_usec),
     .def = "60s",
     .min = 1000000,
     .max = 3600000000ull,
     .cmds = CONN,
     .argname = "DUR",
     .help = "abort the run when an op is outstanding longer than DUR"},
    {.name = "malloc-trim",
     .type = CCB_OPT_DURATION,
     .offset = OFF(malloc_trim_usec),
     .def = "0",
     .max = 60000000ull,
     .cmds = WORK,
     .argname = "DUR",
     .help = "hand freed library buffers back to the system every DUR (0: never; 100ms: a lower "
             "peak RSS of large reads, for some CPU)"},
    {.name = "queue-depth",
     .short_name = 't',
     .type = CCB_OPT_UINT,
     .offset = OFF(queue_depth),
     .def = "16",
     .min = 1,
     .max = 1024,
     .cmds = CCB_CAP_QUEUE,
     .argname = "N",
     .help = "ops in flight per client (rados 16; rbd, krbd 1)"},
    {.name = "clients",
     .type = CCB_OPT_UINT,
     .offset = OFF(clients),
     .def = "1",
     .min = 1,
     .max = 256,
     .cmds = CCB_CAP_CLIENTS,
     .argname = "N",
     .help = "independent connections, each with its own queue"},
    {.name = "op-size",
     .short_name = 'b',
     .type = CCB_OPT_BYTES,
     .offset = OFF(op_size_bytes),
     .def = "4M",
     .min = 1,
     .max = MAX_OP_BYTES,
     .cmds = CCB_CAP_OP_SIZE,
     .argname = "BYTES",
     .help = "bytes per op",
     .flags = SPELLING},
    {.name = "object-size",
     .type = CCB_OPT_BYTES,
     .offset = OFF(object_size_bytes),
     .min = 1,
     .max = 64ull << 30,
     .cmds = CCB_CAP_OBJECT_SIZE,
     .argname = "BYTES",
     .help = "object size (rados: default op size, larger objects take op-size writes; rbd: power "
             "of two, 4K to 32M)",
     .flags = LAYOUT | TEMP},
    {.name = "duration",
     .short_name = 'd',
     .type = CCB_OPT_DURATION,
     .offset = OFF(duration_usec),
     .def = "10s",
     .min = 1000,
     .max = 31ull * 86400000000ull,
     .cmds = WORK | ENGINE,
     .argname = "DUR",
     .help = "run time (rbd, krbd: default one pass over the image; fs: default the whole file)"},
    {.name = "total",
     .type = CCB_OPT_BYTES,
     .offset = OFF(total_bytes),
     .min = 1,
     .max = U64MAX,
     .cmds = CCB_CAP_QUEUE,
     .argname = "BYTES",
     .help = "stop after BYTES (with --duration too: whichever comes first)"},
    {.name = "until-steady",
     .type = CCB_OPT_STEADY,
     .offset = OFF(until_steady),
     .min = 2000000,
     .max = 3600000000ull,
     .cmds = WORK | ENGINE,
     .argname = "[METRIC:]TOL[/WINDOW]",
     .help = "end the run once the per-second METRIC (bw, iops, lat; METRIC_slope: its trend) has "
             "held within TOL (0.1% to 100%) of its mean for WINDOW (whole seconds, 2s to 1h, "
             "default 5s) after the ramp; still bounded by --duration, --total or one pass (with "
             "none of them: at most 60s); a run whose bound is then under a WINDOW away reads on "
             "to it and counts whole"},
    {.name = "steady-ramp",
     .type = CCB_OPT_DURATION,
     .offset = OFF(steady_ramp_usec),
     .max = 3600000000ull,
     .cmds = WORK | ENGINE,
     .argname = "DUR",
     .help = "with --until-steady: samples count after DUR (default: after 1s and twice the "
             "readahead, object or cache the path fills)"},
    {.name = "rate",
     .type = CCB_OPT_STR,
     .offset = OFF(rate),
     .cmds = WORK | ENGINE,
     .argname = "OPS|BYTES/s",
     .help = "open loop: issue ops at this rate, whether or not earlier ones came back, ops per "
             "second (500, 2.5) or bytes per second (40MiB/s: divided by the op size); the whole "
             "run's, split evenly over --clients (and --members); each op's response time counts "
             "from its intended start, its service time from its submission; not for fs meta"},
    {.name = "arrivals",
     .type = CCB_OPT_CHOICE,
     .offset = OFF(arrivals),
     .def = "uniform",
     .choices = CHOICES("uniform", "poisson"),
     .cmds = WORK | ENGINE,
     .help = "with --rate: evenly spaced arrivals, or exponential gaps (seeded, see --rate-seed)"},
    {.name = "max-in-flight",
     .type = CCB_OPT_UINT,
     .offset = OFF(queue_depth),
     .min = 1,
     .max = 1024,
     .cmds = CCB_CAP_QUEUE,
     .argname = "N",
     .help = "with --rate: ops in flight per client at most (the same setting as --queue-depth: "
             "give one of them); an arrival that finds them all busy waits in the backlog"},
    {.name = "max-backlog",
     .type = CCB_OPT_STR,
     .offset = OFF(max_backlog),
     .def = "1s",
     .cmds = WORK | ENGINE,
     .argname = "N|DUR",
     .help = "with --rate: the bound of the backlog, N waiting arrivals per client or the longest "
             "DUR an arrival may wait (default 1s); past it the oldest waiting arrival is dropped "
             "and counted"},
    {.name = "rate-seed",
     .type = CCB_OPT_UINT,
     .offset = OFF(rate_seed),
     .max = (1ull << 63) - 1,
     .cmds = WORK | ENGINE,
     .argname = "N",
     .help = "with --rate --arrivals poisson: the seed of the gaps (client i: from N + i; default "
             "from the clock; the result names it)"},
    {.name = "busy-poll",
     .type = CCB_OPT_FLAG,
     .offset = OFF(busy_poll),
     .cmds = WORK | ENGINE,
     .help = "with --rate: each client polls the clock for its next arrival instead of sleeping "
             "until it; a sleeping thread is issued late by the host's wake-up time (on a VM, "
             "0.1 to 2 ms at p99), a polling one by microseconds; each client then keeps a CPU "
             "busy (docs/capacity.md)"},
    {.name = "slo",
     .type = CCB_OPT_STR,
     .offset = OFF(slo),
     .cmds = CAPACITY,
     .argname = "pQ<=DUR[,...]",
     .help = "capacity: the latency target each step's response time must meet, one or more of "
             "p50, p90, p99, p99.9 (p99<=10ms,p50<=2ms); required"},
    {.name = "precision",
     .type = CCB_OPT_PCT,
     .offset = OFF(precision_centipct),
     .def = "5%",
     .min = 10,
     .max = 5000,
     .cmds = CAPACITY,
     .argname = "PCT",
     .help = "capacity: bisect until the highest rate that meets the SLO and the lowest that "
             "does not are within PCT of each other (0.1% to 50%)"},
    {.name = "step-time",
     .type = CCB_OPT_DURATION,
     .offset = OFF(step_time_usec),
     .def = "10s",
     .min = 500000,
     .max = 3600000000ull,
     .cmds = CAPACITY,
     .argname = "DUR",
     .help = "capacity: each step's bound (0.5s to 1h); with --until-steady a step ends sooner "
             "once steady"},
    {.name = "max-steps",
     .type = CCB_OPT_UINT,
     .offset = OFF(max_steps),
     .def = "20",
     .min = 2,
     .max = 200,
     .cmds = CAPACITY,
     .argname = "N",
     .help = "capacity: the search's steps at most (the closed-loop probe and the two headroom "
             "steps aside)"},
    {.name = "run-name",
     .type = CCB_OPT_NAME,
     .offset = OFF(run_name),
     .cmds = CCB_CAP_OBJECTS | CLEANUP,
     .argname = "NAME",
     .help = "object name prefix (default: unique per run)"},
    {.name = "reuse",
     .type = CCB_OPT_FLAG,
     .offset = OFF(reuse),
     .cmds = CCB_CAP_REUSE,
     .help = "overwrite a run name whose objects exist (fs: use an existing --dir)"},
    {.name = "all-runs",
     .type = CCB_OPT_FLAG,
     .offset = OFF(all_runs),
     .cmds = CLEANUP,
     .help = "remove the objects of every ccbench run in the namespace"},
    {.name = "force",
     .type = CCB_OPT_FLAG,
     .offset = OFF(force),
     .cmds = CLEANUP | RESTORE,
     .help =
         "cleanup --run-name: remove RUN.<digits> objects even when RUN.meta is missing; restore: "
         "also undo records of runs that may be alive (another PID namespace or host)"},
    {.name = "size",
     .short_name = 's',
     .type = CCB_OPT_BYTES,
     .offset = OFF(image_size_bytes),
     .def = "1G",
     .min = 4096,
     .max = 1ull << 50,
     .cmds = CCB_CAP_IMAGE,
     .argname = "BYTES",
     .help = "size of the temporary image",
     .flags = LAYOUT | TEMP},
    {.name = "order",
     .type = CCB_OPT_UINT,
     .offset = OFF(order),
     .min = 12,
     .max = 25,
     .cmds = CCB_CAP_IMAGE,
     .argname = "N",
     .help = "object size 2^N bytes (12 to 25)",
     .flags = LAYOUT | TEMP},
    {.name = "stripe-unit",
     .type = CCB_OPT_BYTES,
     .offset = OFF(stripe_unit_bytes),
     .min = 4096,
     .max = 1ull << 25,
     .cmds = CCB_CAP_STRIPES,
     .argname = "BYTES",
     .help = "stripe unit (divides the object size)",
     .flags = LAYOUT | TEMP},
    {.name = "stripe-count",
     .type = CCB_OPT_UINT,
     .offset = OFF(stripe_count),
     .min = 1,
     .max = 4096,
     .cmds = CCB_CAP_STRIPES,
     .argname = "N",
     .help = "objects per stripe",
     .flags = LAYOUT | TEMP},
    {.name = "image-features",
     .type = CCB_OPT_STR,
     .offset = OFF(image_features),
     .cmds = CCB_CAP_IMAGE,
     .argname = "LIST",
     .help = "features of the temporary image, e.g. layering,exclusive-lock",
     .flags = LAYOUT | TEMP},
    {.name = "data-pool",
     .type = CCB_OPT_STR,
     .offset = OFF(data_pool),
     .cmds = CCB_CAP_STRIPES,
     .argname = "POOL",
     .help = "data pool of the temporary image or of the files",
     .flags = LAYOUT | TEMP},
    {.name = "data-pool-type",
     .type = CCB_OPT_CHOICE,
     .offset = OFF(data_pool_type),
     .choices = CHOICES("replicated", "erasure", "fastec"),
     .cmds = CCB_CAP_POOL_TYPE,
     .help = "what the data pool (rados: --pool) must be; fastec: erasure-coded with "
             "allow_ec_optimizations on (Tentacle); refused (exit 2) before any image is "
             "created when it is not"},
    {.name = "fastec-pool",
     .type = CCB_OPT_NAME,
     .offset = OFF(fastec_pool),
     .cmds = CCB_CAP_POOL_TYPE,
     .argname = "POOL",
     .help = "a run whose data pool (rados: --pool) is POOL needs FastEC on it, as "
             "--data-pool-type fastec (a sweep's fixed parameter over a pool axis)"},
    {.name = "keep",
     .type = CCB_OPT_FLAG,
     .offset = OFF(keep),
     .cmds = CCB_CAP_TEMP,
     .help = "keep the temporary image or directory",
     .flags = TEMP},
    {.name = "io-size",
     .type = CCB_OPT_BYTES,
     .offset = OFF(op_size_bytes),
     .min = 512,
     .max = MAX_OP_BYTES,
     .cmds = CCB_CAP_IO_SIZE,
     .argname = "BYTES",
     .help = "bytes per I/O",
     .flags = SPELLING},
    {.name = "sim-osd-latency",
     .type = CCB_OPT_DURATION,
     .offset = OFF(sim_osd_latency_usec),
     .min = 1,
     .max = 10000000,
     .cmds = CCB_CAP_SIM_LATENCY,
     .argname = "DUR",
     .help = "inject about DUR of OSD latency on the client (a simulated run)"},
    {.name = "osd-latency",
     .type = CCB_OPT_DURATION,
     .offset = OFF(osd_latency_usec),
     .min = 100,
     .max = 10000000,
     .cmds = WORK | SWEEP,
     .argname = "DUR",
     .help = "make every OSD delay each client message by about DUR for the run (librbd and the "
             "kernel client alike); put back after. Slows every client of the cluster: only on a "
             "throwaway cluster (daemons on loopback) or with --osd-latency-cluster",
     .flags = WIDE},
    /* Where the time went (attribution.h, docs/attribution.md). */
    {.name = "attribution",
     .type = CCB_OPT_CHOICE,
     .offset = OFF(attribution),
     .def = "on",
     .choices = CHOICES("on", "off"),
     .cmds = WORK | SWEEP,
     .help = "per-OSD figures around the run: each op's latency by the OSD it went to (rados, "
             "rbd), the OSDs' own counters and slowest ops before and after (read-only; off: "
             "none of it)"},
    {.name = "osd-latency-cluster",
     .type = CCB_OPT_STR,
     .offset = OFF(osd_latency_cluster),
     .cmds = WORK | SWEEP,
     .argname = "FSID",
     .help = "allow --osd-latency on the cluster with this fsid (any cluster, not only a throwaway "
             "one: every client of it is slowed down)",
     .flags = WIDE},
    /* Faults during a run (issue 42, src/fault/, docs/failures.md). */
    {.name = "fault",
     .type = CCB_OPT_LIST,
     .offset = OFF(faults),
     .cmds = WORK,
     .argname = "WHEN:ACTION",
     .help = "change the cluster during the run and measure what it costs the client "
             "(repeatable; ';' separates several in one value): WHEN a time into the run "
             "(20s), clean (every PG active+clean again after the fault before) or clean+DUR; "
             "ACTION osd-down:N, osd-out:N, osd-in:N, set:FLAG, unset:FLAG, "
             "config:WHO/NAME=VALUE, exec:COMMAND (no shell) with undo:COMMAND after it, or "
             "end (the run ends there). Needs --allow-cluster-changes; all is put back after"},
    {.name = "allow-cluster-changes",
     .type = CCB_OPT_FLAG,
     .offset = OFF(allow_cluster_changes),
     .cmds = WORK,
     .help = "let --fault change the cluster (OSDs marked out or down, flags, settings, "
             "commands run): without it a run with --fault is refused before it connects"},
    {.name = "recovery-timeout",
     .type = CCB_OPT_DURATION,
     .offset = OFF(recovery_timeout_usec),
     .def = "5m",
     .min = 1000000,
     .max = 86400000000ull,
     .cmds = WORK,
     .argname = "DUR",
     .help = "--fault at clean: end the run (status aborted, with the cluster's state) when "
             "the cluster is not clean DUR after the fault before"},
    {.name = "device",
     .type = CCB_OPT_STR,
     .offset = OFF(device),
     .cmds = CCB_CAP_DEVICE | RESTORE,
     .argname = "DEV",
     .help = "block device to read (/dev/rbdN, /dev/rbd/POOL/IMAGE, any block device)",
     .flags = TARGET},
    {.name = "direct",
     .type = CCB_OPT_FLAG,
     .offset = OFF(direct),
     .cmds = CCB_CAP_DIRECT,
     .help = "O_DIRECT (krbd: reads through io_uring at --queue-depth; fs: the files, on a mount)"},
    {.name = "block-size",
     .type = CCB_OPT_BYTES,
     .offset = OFF(op_size_bytes),
     .min = 4096,
     .max = MAX_OP_BYTES,
     .cmds = CCB_CAP_BLOCK_SIZE,
     .argname = "BYTES",
     .help = "bytes per write or read call, like dd bs",
     .flags = SPELLING},
    {.name = NULL},
};

/* Above the paths (group, sweep, report, compare, output): last in --help. */
static const struct ccb_opt_desc late_rows[] = {
    /* group */
    {.name = "group",
     .type = CCB_OPT_NAME,
     .offset = OFF(group),
     .cmds = WORK,
     .argname = "NAME",
     .help = "join group NAME: start with the other members, results add up"},
    {.name = "members",
     .type = CCB_OPT_UINT,
     .offset = OFF(members),
     .min = 1,
     .max = 1024,
     .cmds = WORK | K8S,
     .argname = "N",
     .help = "members of --group"},
    {.name = "group-timeout",
     .type = CCB_OPT_DURATION,
     .offset = OFF(group_timeout_usec),
     .def = "60s",
     .min = 1000000,
     .max = 86400000000ull,
     .cmds = WORK,
     .argname = "DUR",
     .help = "give up when the group is not complete after DUR"},
    {.name = "group-pool",
     .type = CCB_OPT_STR,
     .offset = OFF(group_pool),
     .cmds = WORK | GROUP,
     .argname = "POOL",
     .help = "pool of the group objects (default: --pool, else rbd)"},
    {.name = "group-cleanup",
     .type = CCB_OPT_FLAG,
     .offset = OFF(group_cleanup),
     .cmds = GROUP,
     .help = "group report: remove the group's objects afterwards"},
    {.name = "k8s-namespace",
     .type = CCB_OPT_NAME,
     .offset = OFF(k8s_namespace),
     .def = "rook-ceph",
     .cmds = K8S,
     .argname = "NS",
     .help = "group manifest: the namespace of the Jobs (Rook's, where its mon ConfigMap and "
             "Secret are)"},
    {.name = "k8s-image",
     .type = CCB_OPT_STR,
     .offset = OFF(k8s_image),
     .def = "ccbench",
     .cmds = K8S,
     .argname = "IMAGE",
     .help = "group manifest: the pods' image (docker/Dockerfile's)"},
    {.name = "k8s-secret",
     .type = CCB_OPT_NAME,
     .offset = OFF(k8s_secret),
     .cmds = K8S,
     .argname = "NAME",
     .help = "group manifest: a Secret holding ceph.conf and keyring, mounted as /etc/ceph "
             "(default: Rook's rook-ceph-mon-endpoints ConfigMap and rook-ceph-mon Secret)"},
    {.name = "wait",
     .type = CCB_OPT_DURATION,
     .offset = OFF(group_wait_usec),
     .def = "0s",
     .min = 0,
     .max = 86400000000ull,
     .cmds = GROUP,
     .argname = "DUR",
     .help = "group report: wait up to DUR for members still running (or the start), "
             "re-reading the group every second"},
    /* sweep, report, compare */
    {.name = "json",
     .type = CCB_OPT_STR,
     .offset = OFF(json_file),
     .cmds = SWEEP | CAPACITY,
     .argname = "FILE",
     .help = "write all points and runs as JSON"},
    {.name = "csv",
     .type = CCB_OPT_STR,
     .offset = OFF(csv_file),
     .cmds = SWEEP | REPORT | GROUP | CAPACITY,
     .argname = "FILE",
     .help = "write one CSV row per point"},
    {.name = "svg",
     .type = CCB_OPT_STR,
     .offset = OFF(svg_file),
     .cmds = SWEEP | REPORT | GROUP | CAPACITY,
     .argname = "FILE",
     .help = "write a self-contained SVG chart"},
    {.name = "per-osd",
     .type = CCB_OPT_FLAG,
     .offset = OFF(per_osd),
     .cmds = REPORT,
     .help = "report of a saved run: its per-OSD figures (attribution), every OSD as a table, "
             "-f csv or --csv one row per OSD, -f json the attribution, --svg each OSD's p99 "
             "beside the median OSD's"},
    {.name = "closed-loop",
     .type = CCB_OPT_STR,
     .offset = OFF(closed_loop_file),
     .cmds = REPORT,
     .argname = "SWEEP.json",
     .help = "report of a saved capacity search: draw this saved closed-loop sweep "
             "(configs/closed-loop-curve.json) on its chart too, each point at its ops/s, "
             "p50 and p99 (its points listed in the text and -f json views)"},
    {.name = "seed",
     .type = CCB_OPT_UINT,
     .offset = OFF(seed),
     .max = U64MAX,
     .cmds = SWEEP,
     .argname = "N",
     .help = "shuffle the order of runs with this seed (default: interleaved)"},
    {.name = "param",
     .type = CCB_OPT_PARAM,
     .offset = OFF(params),
     .cmds = SWEEP,
     .argname = "KEY=VALUE",
     .help = "override a config parameter; a matrix axis becomes this one value, or the values of "
             "a JSON list; KEY= removes it (repeatable)"},
    {.name = "repeat",
     .type = CCB_OPT_UINT,
     .offset = OFF(repeat),
     .min = 1,
     .max = 1000,
     .cmds = SWEEP,
     .argname = "N",
     .help = "run every point N times (overrides the config's repeat)"},
    {.name = "repeat-until",
     .type = CCB_OPT_PCT,
     .offset = OFF(repeat_until_centipct),
     .max = 10000,
     .cmds = SWEEP,
     .argname = "PCT",
     .help = "stop repeating a point once the 95% confidence interval of its mean bandwidth is "
             "within ±PCT of it (Student t; at least 2 runs, at most the repeat count; 0: off; "
             "overrides the config's repeat_until)"},
    {.name = "dry-run",
     .type = CCB_OPT_FLAG,
     .offset = OFF(dry_run),
     .cmds = SWEEP,
     .help =
         "check every point, print the grid and an estimate of bytes and time; contact nothing"},
    {.name = "runner",
     .type = CCB_OPT_STR,
     .offset = OFF(runner),
     .cmds = SWEEP,
     .argname = "PATH=CMD",
     .help = "run the points of PATH (krbd, librbd, ...) through the command CMD, which gets each "
             "point's ccbench arguments and prints its -f json result (tests/krbd-vm/runner.sh: "
             "the real rbd driver in a qemu guest)"},
    {.name = "tolerance",
     .type = CCB_OPT_STR,
     .offset = OFF(tolerance),
     .def = "10%",
     .cmds = COMPARE,
     .argname = "PCT",
     .help = "a point regresses when worse by more than PCT"},
    {.name = "metric",
     .type = CCB_OPT_CHOICE,
     .offset = OFF(metric),
     .def = "bandwidth",
     .choices = CHOICES("bandwidth", "p99", "pause", "recovery-p99", "osd-p99"),
     .cmds = COMPARE,
     .help = "what compare judges: bandwidth, the p99 latency; pause and recovery-p99 gate runs "
             "with --fault (the I/O pause, the p99 while the cluster recovered); osd-p99 the p99 "
             "of the ops of one OSD (--osd N; default: the OSD with the highest p99, per-OSD "
             "figures of rados and rbd runs); all but bandwidth: lower is better"},
    {.name = "osd",
     .type = CCB_OPT_UINT,
     .offset = OFF(osd_id),
     .max = 1000000,
     .cmds = COMPARE,
     .argname = "N",
     .help = "compare --metric osd-p99: gate on the p99 of osd.N's ops"},
    {.name = "allow-distrust",
     .type = CCB_OPT_FLAG,
     .offset = OFF(allow_distrust),
     .cmds = COMPARE,
     .help = "gate on points whose explain says distrust (refused otherwise)"},
    {.name = "same-answer",
     .type = CCB_OPT_FLAG,
     .offset = OFF(same_answer),
     .cmds = COMPARE,
     .help = "judge whether CURRENT gives BASELINE's answer: every point within --tolerance either "
             "way or within either point's 95% confidence interval (for a point whose runs all ran "
             "to their bound both ways, the two-sample interval), and the same knees (or ones the "
             "baseline's repeats do not tell apart; a fuse-loop series' knee, which recommends "
             "nothing, is not judged); exit 1 otherwise"},
    {.name = "allow-release-change",
     .type = CCB_OPT_FLAG,
     .offset = OFF(allow_release_change),
     .cmds = COMPARE,
     .help = "gate across Ceph releases of the cluster or the client (refused otherwise)"},
    {.name = "format",
     .short_name = 'f',
     .type = CCB_OPT_FORMAT,
     .offset = OFF(format),
     .def = "text",
     .choices = CHOICES("text", "json", "csv"),
     .cmds = OUT | GROUP | EXPLAIN,
     .help = "result format"},
    {.name = "output",
     .type = CCB_OPT_STR,
     .offset = OFF(output),
     .cmds = OUT,
     .argname = "FILE",
     .help = "write the result to FILE instead of stdout"},
    /* The result as one HTML page: every command that writes a result. */
    {.name = "html",
     .type = CCB_OPT_STR,
     .offset = OFF(html_file),
     .cmds = OUT | GROUP | COMPARE,
     .argname = "FILE",
     .help = "write the result as one self-contained HTML page: the answer and the why lines at "
             "the top, the charts, the tables and the settings (inline SVG and CSS, no script, "
             "nothing fetched)"},
    {.name = "explain",
     .type = CCB_OPT_CHOICE,
     .offset = OFF(explain),
     .def = "on",
     .choices = CHOICES("on", "off"),
     .cmds = OUT,
     .help = "add the explain list (why lines: what limited the result) to the result"},
    {.name = "secrets-stdin",
     .type = CCB_OPT_FLAG,
     .offset = OFF(secrets_stdin),
     .cmds = OUT,
     .help = "read the options that carry key material (-o key=..., --map-options secret=...) from "
             "stdin, one JSON object such as {\"set\": [\"key=...\"]}, not from the command line "
             "that other users can read (how a sweep's --runner gets them)"},
    {.name = "quiet",
     .short_name = 'q',
     .type = CCB_OPT_FLAG,
     .offset = OFF(quiet),
     .cmds = OUT | CLEANUP | RESTORE | SWEEP | GROUP,
     .help = "no progress on stderr"},
    {.name = NULL},
};

/* The assembled table, with room for as many rows as ccb_opts.given has
 * flags, and its end row. */
#define MAX_ROWS (sizeof(((struct ccb_opts *)0)->given) / sizeof(bool))
static struct ccb_opt_desc table[MAX_ROWS + 1];
static size_t n_rows;
const struct ccb_opt_desc *ccb_opt_table;

/* The paths' own rows, in the registry's order: group i's bit is
 * CCB_CMD_PATH_FIRST + i. */
#define MAX_GROUPS 23
static const struct ccb_opt_desc *groups_of[MAX_GROUPS];
static size_t n_groups_of;

/* Append @p rows (ending in a row with no name) to the table, a path's own
 * with CCB_CMD_OWN turned into its @p bit; -E2BIG past its room, -EEXIST
 * for a name already in it (two paths may not both own an option: the
 * parser would find only the first). */
static int append(const struct ccb_opt_desc *rows, uint64_t bit, size_t *n)
{
	for (const struct ccb_opt_desc *r = rows; r->name; r++) {
		if (*n >= MAX_ROWS)
			return -E2BIG;
		for (size_t i = 0; i < *n; i++)
			if (strcmp(table[i].name, r->name) == 0)
				return -EEXIST;
		table[*n] = *r;
		if (r->cmds & CCB_CMD_OWN)
			table[*n].cmds = (r->cmds & ~CCB_CMD_OWN) | bit;
		(*n)++;
	}
	return 0;
}

int ccb_opt_table_build(const struct ccb_opt_desc *const *groups, size_t n_groups)
{
	size_t n = 0;
	int rc;

	if (ccb_opt_table)
		return 0;
	if (n_groups > MAX_GROUPS)
		return -E2BIG;
	rc = append(shared_rows, 0, &n);
	for (size_t g = 0; g < n_groups && rc == 0; g++) {
		groups_of[g] = groups[g];
		rc = append(groups[g], 1ull << (CCB_CMD_PATH_FIRST + g), &n);
	}
	n_groups_of = n_groups;
	if (rc == 0)
		rc = append(late_rows, 0, &n);
	if (rc < 0)
		return rc;
	table[n] = (struct ccb_opt_desc){.name = NULL};
	n_rows = n;
	ccb_opt_table = table;
	return 0;
}

/* Every use of the table comes after ccb_opt_table_build(): a program that
 * forgot it would parse without its paths' options, so it stops here. */
static const struct ccb_opt_desc *built(void)
{
	if (!ccb_opt_table) {
		fprintf(stderr, "ccbench: internal error: the option table was not built "
		                "(ccb_paths_init() first)\n");
		abort();
	}
	return ccb_opt_table;
}

uint64_t ccb_opt_group_bit(const struct ccb_opt_desc *rows)
{
	for (size_t g = 0; g < n_groups_of; g++)
		if (groups_of[g] == rows)
			return 1ull << (CCB_CMD_PATH_FIRST + g);
	return 0;
}

size_t ccb_opt_count(void)
{
	built();
	return n_rows;
}

const struct ccb_opt_desc *ccb_opt_find(const char *name)
{
	for (const struct ccb_opt_desc *d = built(); d->name; d++)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}
