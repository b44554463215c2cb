/*
 * The option table and its parsers. Range checks live in the descriptors,
 * not in scattered ifs, so the CLI, --help and sweep configs agree.
 */
#include <ccbench/options.h>
#include <ccbench/units.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OFF(f) offsetof(struct ccb_opts, f)
/* krbd restore connects too: to put back what --osd-latency set on the OSDs. */
#define CONN                                                                                       \
	(CCB_CMD_CONN | CCB_CMD_KRBD | CCB_CMD_FS | CCB_CMD_GROUP | CCB_CMD_SWEEP | CCB_CMD_RESTORE)
#define RADOS   CCB_CMD_RADOS
#define CLEANUP CCB_CMD_CLEANUP
#define OUT     CCB_CMD_OUTPUT
#define RBD     CCB_CMD_RBD
#define KRBD    CCB_CMD_KRBD
#define RESTORE CCB_CMD_RESTORE
#define FS      CCB_CMD_FS
#define SWEEP   CCB_CMD_SWEEP
#define REPORT  CCB_CMD_REPORT
#define COMPARE CCB_CMD_COMPARE
#define GROUP   CCB_CMD_GROUP
#define EXPLAIN CCB_CMD_EXPLAIN
#define WORK    CCB_CMD_WORKLOAD
#define U64MAX  UINT64_MAX
#define LAYOUT  CCB_OPTF_LAYOUT
#define TEMP    CCB_OPTF_TEMP
#define TARGET  CCB_OPTF_TARGET
#define WIDE    CCB_OPTF_SWEEP_WIDE

/* 1 TiB ops make no sense for a benchmark and keep products within 64 bits. */
#define MAX_OP_BYTES (1ull << 30)

const struct ccb_opt_desc ccb_opt_table[] = {
    {"conf", 'c', CCB_OPT_STR, OFF(conf), NULL, 0, 0, CONN, "PATH",
     "ceph.conf (default: $CEPH_CONF, else /etc/ceph/$cluster.conf)", 0},
    {"cluster", 0, CCB_OPT_STR, OFF(cluster), "ceph", 0, 0, CONN, "NAME", "cluster name", 0},
    {"name", 'n', CCB_OPT_STR, OFF(name), NULL, 0, 0, CONN, "TYPE.ID",
     "client name (default client.admin)", 0},
    {"id", 'i', CCB_OPT_STR, OFF(id), NULL, 0, 0, CONN, "ID", "client id (client.ID)", 0},
    {"keyring", 'k', CCB_OPT_STR, OFF(keyring), NULL, 0, 0, CONN, "PATH", "keyring file", 0},
    {"set", 'o', CCB_OPT_SET, OFF(sets), NULL, 0, 0, CONN, "KEY=VALUE",
     "set any librados/librbd option (repeatable)", 0},
    {"pool", 'p', CCB_OPT_STR, OFF(pool), NULL, 0, 0, RADOS | CLEANUP | RBD | KRBD | SWEEP | GROUP,
     "POOL", "pool to use (rbd: default rbd)", 0},
    {"namespace", 'N', CCB_OPT_STR, OFF(rados_namespace), "ccbench", 0, 0, RADOS | CLEANUP, "NS",
     "RADOS namespace of the run's objects", 0},
    {"connect-timeout", 0, CCB_OPT_DURATION, OFF(connect_timeout_usec), "30s", 1000000,
     3600000000ull, CONN, "DUR", "give up connecting after DUR", 0},
    {"op-timeout", 0, CCB_OPT_DURATION, OFF(op_timeout_usec), "60s", 1000000, 3600000000ull, CONN,
     "DUR", "abort the run when an op is outstanding longer than DUR", 0},
    {"malloc-trim", 0, CCB_OPT_DURATION, OFF(malloc_trim_usec), "0", 0, 60000000ull, WORK, "DUR",
     "hand freed library buffers back to the system every DUR (0: never; 100ms: a lower peak RSS "
     "of large reads, for some CPU)",
     0},
    {"queue-depth", 't', CCB_OPT_UINT, OFF(queue_depth), "16", 1, 1024, RADOS | RBD | KRBD, "N",
     "ops in flight per client (rados 16; rbd, krbd 1)", 0},
    {"clients", 0, CCB_OPT_UINT, OFF(clients), "1", 1, 256, RADOS | RBD | FS, "N",
     "independent connections, each with its own queue", 0},
    {"op-size", 'b', CCB_OPT_BYTES, OFF(op_size_bytes), "4M", 1, MAX_OP_BYTES, RADOS, "BYTES",
     "bytes per op", 0},
    {"object-size", 0, CCB_OPT_BYTES, OFF(object_size_bytes), NULL, 1, 64ull << 30,
     RADOS | RBD | KRBD | FS, "BYTES",
     "object size (rados: default op size, larger objects take op-size writes; rbd: power "
     "of two, 4K to 32M)",
     LAYOUT | TEMP},
    {"duration", 'd', CCB_OPT_DURATION, OFF(duration_usec), "10s", 1000, 31ull * 86400000000ull,
     RADOS | RBD | KRBD | FS, "DUR",
     "run time (rbd, krbd: default one pass over the image; fs: default the whole file)", 0},
    {"total", 0, CCB_OPT_BYTES, OFF(total_bytes), NULL, 1, U64MAX, RADOS | RBD | KRBD, "BYTES",
     "stop after BYTES (with --duration too: whichever comes first)", 0},
    {"max-objects", 0, CCB_OPT_UINT, OFF(max_objects), NULL, 1, 1ull << 40, RADOS, "N",
     "stop writing after N objects", 0},
    {"until-steady", 0, CCB_OPT_STEADY, OFF(until_steady), NULL, 2000000, 3600000000ull, WORK,
     "[METRIC:]TOL[/WINDOW]",
     "end the run once the per-second METRIC (bw, iops, lat; METRIC_slope: its trend) has held "
     "within TOL (0.1% to 100%) of its mean for WINDOW (whole seconds, 2s to 1h, default 5s) "
     "after the ramp; still bounded by --duration, --total or one pass (with none of them: "
     "at most 60s); a run whose bound is then under a WINDOW away reads on to it and counts "
     "whole",
     0},
    {"steady-ramp", 0, CCB_OPT_DURATION, OFF(steady_ramp_usec), NULL, 0, 3600000000ull, WORK, "DUR",
     "with --until-steady: samples count after DUR (default: after 1s and twice the readahead, "
     "object or cache the path fills)",
     0},
    {"rate", 0, CCB_OPT_STR, OFF(rate), NULL, 0, 0, WORK, "OPS|BYTES/s",
     "open loop: issue ops at this rate, whether or not earlier ones came back, ops per second "
     "(500, 2.5) or bytes per second (40MiB/s: divided by the op size); the whole run's, split "
     "evenly over --clients (and --members); each op's response time counts from its intended "
     "start, its service time from its submission; not for fs meta",
     0},
    {"arrivals", 0, CCB_OPT_CHOICE, OFF(arrivals), "uniform", 0, 0, WORK, "uniform|poisson",
     "with --rate: evenly spaced arrivals, or exponential gaps (seeded, see --rate-seed)", 0},
    {"max-in-flight", 0, CCB_OPT_UINT, OFF(queue_depth), NULL, 1, 1024, RADOS | RBD | KRBD, "N",
     "with --rate: ops in flight per client at most (the same setting as --queue-depth: give one "
     "of them); an arrival that finds them all busy waits in the backlog",
     0},
    {"max-backlog", 0, CCB_OPT_STR, OFF(max_backlog), "1s", 0, 0, WORK, "N|DUR",
     "with --rate: the bound of the backlog, N waiting arrivals per client or the longest DUR an "
     "arrival may wait (default 1s); past it the oldest waiting arrival is dropped and counted",
     0},
    {"rate-seed", 0, CCB_OPT_UINT, OFF(rate_seed), NULL, 0, (1ull << 63) - 1, WORK, "N",
     "with --rate --arrivals poisson: the seed of the gaps (client i: from N + i; default from "
     "the clock; the result names it)",
     0},
    {"run-name", 0, CCB_OPT_NAME, OFF(run_name), NULL, 0, 0, RADOS | CLEANUP, "NAME",
     "object name prefix (default: unique per run)", 0},
    {"no-cleanup", 0, CCB_OPT_FLAG, OFF(no_cleanup), NULL, 0, 0, RADOS, NULL,
     "keep the objects written (for seq/rand)", 0},
    {"no-verify", 0, CCB_OPT_FLAG, OFF(no_verify), NULL, 0, 0, RADOS, NULL,
     "do not check object headers on reads", 0},
    {"reuse", 0, CCB_OPT_FLAG, OFF(reuse), NULL, 0, 0, RADOS | FS, NULL,
     "overwrite a run name whose objects exist (fs: use an existing --dir)", 0},
    {"all-runs", 0, CCB_OPT_FLAG, OFF(all_runs), NULL, 0, 0, CLEANUP, NULL,
     "remove the objects of every ccbench run in the namespace", 0},
    {"force", 0, CCB_OPT_FLAG, OFF(force), NULL, 0, 0, CLEANUP | RESTORE, NULL,
     "cleanup --run-name: remove RUN.<digits> objects even when RUN.meta is missing; restore: "
     "also undo records of runs that may be alive (another PID namespace or host)",
     0},
    /* rbd */
    {"image", 0, CCB_OPT_STR, OFF(image), NULL, 0, 0, RBD, "POOL/NAME",
     "use this existing image (read-only for read modes) instead of a temporary one", TARGET},
    {"size", 's', CCB_OPT_BYTES, OFF(image_size_bytes), "1G", 4096, 1ull << 50, RBD | KRBD, "BYTES",
     "size of the temporary image", LAYOUT | TEMP},
    {"order", 0, CCB_OPT_UINT, OFF(order), NULL, 12, 25, RBD | KRBD, "N",
     "object size 2^N bytes (12 to 25)", LAYOUT | TEMP},
    {"stripe-unit", 0, CCB_OPT_BYTES, OFF(stripe_unit_bytes), NULL, 4096, 1ull << 25,
     RBD | KRBD | FS, "BYTES", "stripe unit (divides the object size)", LAYOUT | TEMP},
    {"stripe-count", 0, CCB_OPT_UINT, OFF(stripe_count), NULL, 1, 4096, RBD | KRBD | FS, "N",
     "objects per stripe", LAYOUT | TEMP},
    {"image-features", 0, CCB_OPT_STR, OFF(image_features), NULL, 0, 0, RBD | KRBD, "LIST",
     "features of the temporary image, e.g. layering,exclusive-lock", LAYOUT | TEMP},
    {"data-pool", 0, CCB_OPT_STR, OFF(data_pool), NULL, 0, 0, RBD | KRBD | FS, "POOL",
     "data pool of the temporary image or of the files", LAYOUT | TEMP},
    {"allow-write-existing", 0, CCB_OPT_FLAG, OFF(allow_write_existing), NULL, 0, 0, RBD, NULL,
     "let a write mode write into --image", 0},
    {"keep", 0, CCB_OPT_FLAG, OFF(keep), NULL, 0, 0, RBD | KRBD | FS, NULL,
     "keep the temporary image or directory", TEMP},
    {"io-size", 0, CCB_OPT_BYTES, OFF(io_size_bytes), "64K", 512, MAX_OP_BYTES, RBD | KRBD, "BYTES",
     "bytes per I/O", 0},
    {"pattern", 0, CCB_OPT_CHOICE, OFF(pattern), "seq", 0, 0, RBD, "seq|rand",
     "offsets for modes that do not say (rw)", 0},
    {"rw-mix-read", 0, CCB_OPT_UINT, OFF(rw_mix_read_pct), "50", 0, 100, RBD, "PCT",
     "share of reads in rw mode", 0},
    {"readahead", 0, CCB_OPT_BYTES, OFF(readahead_bytes), NULL, 0, 1ull << 32, RBD, "BYTES",
     "rbd_readahead_max_bytes (0 disables)", 0},
    {"readahead-trigger", 0, CCB_OPT_UINT, OFF(readahead_trigger), NULL, 1, 1u << 20, RBD, "N",
     "rbd_readahead_trigger_requests", 0},
    {"readahead-disable-after", 0, CCB_OPT_BYTES, OFF(readahead_disable_after_bytes), "0", 0,
     U64MAX, RBD, "BYTES", "rbd_readahead_disable_after_bytes (0: never)", 0},
    {"cache-policy", 0, CCB_OPT_CHOICE, OFF(cache_policy), NULL, 0, 0, RBD,
     "writeback|writethrough|writearound", "rbd_cache_policy", 0},
    {"cache-size", 0, CCB_OPT_BYTES, OFF(cache_size_bytes), NULL, 0, 1ull << 40, RBD, "BYTES",
     "rbd_cache_size", 0},
    {"no-cache", 0, CCB_OPT_FLAG, OFF(no_cache), NULL, 0, 0, RBD, NULL, "rbd_cache=false", 0},
    {"sim-osd-latency", 0, CCB_OPT_DURATION, OFF(sim_osd_latency_usec), NULL, 1, 10000000, RBD,
     "DUR", "inject about DUR of OSD latency on the client (a simulated run)", 0},
    {"osd-latency", 0, CCB_OPT_DURATION, OFF(osd_latency_usec), NULL, 100, 10000000, WORK | SWEEP,
     "DUR",
     "make every OSD delay each client message by about DUR for the run (librbd and the kernel "
     "client alike); put back after. Slows every client of the cluster: only on a throwaway "
     "cluster (daemons on loopback) or with --osd-latency-cluster",
     WIDE},
    {"osd-latency-cluster", 0, CCB_OPT_STR, OFF(osd_latency_cluster), NULL, 0, 0, WORK | SWEEP,
     "FSID",
     "allow --osd-latency on the cluster with this fsid (any cluster, not only a throwaway "
     "one: every client of it is slowed down)",
     WIDE},
    /* krbd */
    {"device", 0, CCB_OPT_STR, OFF(device), NULL, 0, 0, KRBD | RESTORE, "DEV",
     "block device to read (/dev/rbdN, /dev/rbd/POOL/IMAGE, any block device)", TARGET},
    {"map", 0, CCB_OPT_STR, OFF(map), NULL, 0, 0, KRBD, "POOL/IMAGE",
     "map this image for the run, unmap at the end", TARGET},
    {"map-via", 0, CCB_OPT_CHOICE, OFF(map_via), "auto", 0, 0, KRBD, "auto|kernel|fuse-loop",
     "how --map exposes the image", 0},
    {"map-options", 0, CCB_OPT_STR, OFF(map_options), NULL, 0, 0, KRBD, "OPTS",
     "kernel map options (queue_depth=N,alloc_size=N,...)", 0},
    {"read-ahead-kb", 0, CCB_OPT_UINT, OFF(read_ahead_kb), NULL, 0, 1u << 20, KRBD, "KB",
     "set /sys/block/DEV/queue/read_ahead_kb for the run (restored after)", 0},
    {"offset", 0, CCB_OPT_BYTES, OFF(offset_bytes), "0", 0, U64MAX, KRBD, "BYTES",
     "start reading at BYTES", 0},
    {"streams", 0, CCB_OPT_UINT, OFF(streams), "1", 1, 256, KRBD, "N",
     "readers on separate regions", 0},
    {"direct", 0, CCB_OPT_FLAG, OFF(direct), NULL, 0, 0, KRBD | FS, NULL,
     "O_DIRECT (krbd: reads through io_uring at --queue-depth; fs: the files, on a mount)", 0},
    /* fs */
    {"file-size", 0, CCB_OPT_BYTES, OFF(file_size_bytes), "1G", 4096, 1ull << 50, FS, "BYTES",
     "bytes per file (per client), like dd count x bs", 0},
    {"block-size", 0, CCB_OPT_BYTES, OFF(block_size_bytes), "4M", 4096, 1ull << 30, FS, "BYTES",
     "bytes per write or read call, like dd bs", 0},
    {"dir", 0, CCB_OPT_STR, OFF(dir), NULL, 0, 0, FS, "FS_PATH",
     "directory of the run in the file system (below --mount DIR with --mount; default "
     "/ccbench-RUN; removed unless --keep)",
     0},
    {"files", 0, CCB_OPT_STR, OFF(files_spec), "1:4k:0:1", 0, 0, FS, "N[:MAX[:MIN[:DIRS]]]",
     "fs meta: bonnie++ -n spec, N x 1024 files (also given as -n SPEC)", 0},
    {"mount", 0, CCB_OPT_STR, OFF(mount), NULL, 0, 0, FS, "DIR",
     "run in this mounted directory (a CephFS kernel or ceph-fuse mount, or any local file "
     "system) through POSIX calls; --dir is then below DIR",
     0},
    {"mount-via", 0, CCB_OPT_CHOICE, OFF(mount_via), NULL, 0, 0, FS, "libcephfs|fuse|kernel",
     "the client: libcephfs in ccbench (the default), or ccbench mounts the CephFS itself, one "
     "mount per client (ceph-fuse, or mount -t ceph), unmounted at the end",
     0},
    {"mount-options", 0, CCB_OPT_STR, OFF(mount_options), NULL, 0, 0, FS, "OPTS",
     "with --mount-via: -o of mount -t ceph (rasize=N,wsize=N,...) or of ceph-fuse", 0},
    /* group */
    {"group", 0, CCB_OPT_NAME, OFF(group), NULL, 0, 0, WORK, "NAME",
     "join group NAME: start with the other members, results add up", 0},
    {"members", 0, CCB_OPT_UINT, OFF(members), NULL, 1, 1024, WORK, "N", "members of --group", 0},
    {"group-timeout", 0, CCB_OPT_DURATION, OFF(group_timeout_usec), "60s", 1000000, 86400000000ull,
     WORK, "DUR", "give up when the group is not complete after DUR", 0},
    {"group-pool", 0, CCB_OPT_STR, OFF(group_pool), NULL, 0, 0, WORK | GROUP, "POOL",
     "pool of the group objects (default: --pool, else rbd)", 0},
    {"group-cleanup", 0, CCB_OPT_FLAG, OFF(group_cleanup), NULL, 0, 0, GROUP, NULL,
     "group report: remove the group's objects afterwards", 0},
    /* sweep, report, compare */
    {"json", 0, CCB_OPT_STR, OFF(json_file), NULL, 0, 0, SWEEP, "FILE",
     "write all points and runs as JSON", 0},
    {"csv", 0, CCB_OPT_STR, OFF(csv_file), NULL, 0, 0, SWEEP | REPORT | GROUP, "FILE",
     "write one CSV row per point", 0},
    {"svg", 0, CCB_OPT_STR, OFF(svg_file), NULL, 0, 0, SWEEP | REPORT | GROUP, "FILE",
     "write a self-contained SVG chart", 0},
    {"seed", 0, CCB_OPT_UINT, OFF(seed), NULL, 0, U64MAX, SWEEP, "N",
     "shuffle the order of runs with this seed (default: interleaved)", 0},
    {"param", 0, CCB_OPT_PARAM, OFF(params), NULL, 0, 0, SWEEP, "KEY=VALUE",
     "override a config parameter; a matrix axis becomes this one value, or the values of "
     "a JSON list; KEY= removes it (repeatable)",
     0},
    {"repeat", 0, CCB_OPT_UINT, OFF(repeat), NULL, 1, 1000, SWEEP, "N",
     "run every point N times (overrides the config's repeat)", 0},
    {"repeat-until", 0, CCB_OPT_PCT, OFF(repeat_until_centipct), NULL, 0, 10000, SWEEP, "PCT",
     "stop repeating a point once the 95% confidence interval of its mean bandwidth is within "
     "±PCT of it (Student t; at least 2 runs, at most the repeat count; 0: off; overrides the "
     "config's repeat_until)",
     0},
    {"dry-run", 0, CCB_OPT_FLAG, OFF(dry_run), NULL, 0, 0, SWEEP, NULL,
     "check every point, print the grid and an estimate of bytes and time; contact nothing", 0},
    {"runner", 0, CCB_OPT_STR, OFF(runner), NULL, 0, 0, SWEEP, "PATH=CMD",
     "run the points of PATH (krbd, librbd, ...) through the command CMD, which gets each point's "
     "ccbench arguments and prints its -f json result (tests/krbd-vm/runner.sh: the real rbd "
     "driver in a qemu guest)",
     0},
    {"tolerance", 0, CCB_OPT_STR, OFF(tolerance), "10%", 0, 0, COMPARE, "PCT",
     "a point regresses when worse by more than PCT", 0},
    {"metric", 0, CCB_OPT_CHOICE, OFF(metric), "bandwidth", 0, 0, COMPARE, "bandwidth|p99",
     "what compare judges", 0},
    {"allow-distrust", 0, CCB_OPT_FLAG, OFF(allow_distrust), NULL, 0, 0, COMPARE, NULL,
     "gate on points whose explain says distrust (refused otherwise)", 0},
    {"same-answer", 0, CCB_OPT_FLAG, OFF(same_answer), NULL, 0, 0, COMPARE, NULL,
     "judge whether CURRENT gives BASELINE's answer: every point within --tolerance either way "
     "or within either point's 95% confidence interval (for a point whose runs all ran to "
     "their bound both ways, the two-sample interval), and the same knees (or ones the baseline's "
     "repeats do not tell apart; a fuse-loop series' knee, which recommends nothing, is not "
     "judged); exit 1 otherwise",
     0},
    {"allow-release-change", 0, CCB_OPT_FLAG, OFF(allow_release_change), NULL, 0, 0, COMPARE, NULL,
     "gate across Ceph releases of the cluster or the client (refused otherwise)", 0},
    {"format", 'f', CCB_OPT_FORMAT, OFF(format), "text", 0, 0, OUT | GROUP | EXPLAIN,
     "text|json|csv", "result format", 0},
    {"output", 0, CCB_OPT_STR, OFF(output), NULL, 0, 0, OUT, "FILE",
     "write the result to FILE instead of stdout", 0},
    {"explain", 0, CCB_OPT_CHOICE, OFF(explain), "on", 0, 0, OUT, "on|off",
     "add the explain list (why lines: what limited the result) to the result", 0},
    {"secrets-stdin", 0, CCB_OPT_FLAG, OFF(secrets_stdin), NULL, 0, 0, OUT, NULL,
     "read the options that carry key material (-o key=..., --map-options secret=...) from "
     "stdin, one JSON object such as {\"set\": [\"key=...\"]}, not from the command line "
     "that other users can read (how a sweep's --runner gets them)",
     0},
    {"quiet", 'q', CCB_OPT_FLAG, OFF(quiet), NULL, 0, 0, OUT | CLEANUP | RESTORE | SWEEP | GROUP,
     NULL, "no progress on stderr", 0},
    {NULL, 0, 0, 0, NULL, 0, 0, 0, NULL, NULL, 0},
};

_Static_assert(sizeof(ccb_opt_table) / sizeof(ccb_opt_table[0]) - 1 <=
                   sizeof(((struct ccb_opts *)0)->given) / sizeof(bool),
               "ccb_opts.given is too small for the option table");

size_t ccb_opt_count(void)
{
	return sizeof(ccb_opt_table) / sizeof(ccb_opt_table[0]) - 1;
}

const struct ccb_opt_desc *ccb_opt_find(const char *name)
{
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

static const char *const format_names[] = {"text", "json", "csv"};

static int set_value(struct ccb_opts *o, const struct ccb_opt_desc *d, const char *value, char *err,
                     size_t err_len)
{
	void *field = (char *)o + d->offset;
	uint64_t v = 0;
	int r = 0;

	switch (d->type) {
	case CCB_OPT_NAME:
		if (!value[0] || strlen(value) > 64 ||
		    strspn(value,
		           "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") !=
		        strlen(value)) {
			snprintf(err, err_len,
			         "--%s '%s': use 1 to 64 of the characters A-Z a-z 0-9 _ -",
			         d->name, value);
			return -EINVAL;
		}
		/* fall through */
	case CCB_OPT_STR:
		if (d->type == CCB_OPT_STR && !value[0]) {
			snprintf(err, err_len, "--%s: empty value", d->name);
			return -EINVAL;
		}
		*(const char **)field = value;
		return 0;
	case CCB_OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case CCB_OPT_CHOICE: {
		size_t l = strlen(value);
		for (const char *w = d->argname; w && *w;) {
			const char *bar = strchr(w, '|');
			size_t wl = bar ? (size_t)(bar - w) : strlen(w);
			if (wl == l && strncmp(w, value, l) == 0) {
				*(const char **)field = value;
				return 0;
			}
			w = bar ? bar + 1 : NULL;
		}
		snprintf(err, err_len, "--%s '%s': expected one of %s", d->name, value, d->argname);
		return -EINVAL;
	}
	case CCB_OPT_FORMAT:
		for (unsigned i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
			if (strcmp(value, format_names[i]) == 0) {
				*(enum ccb_format *)field = (enum ccb_format)i;
				return 0;
			}
		}
		snprintf(err, err_len, "--%s '%s': expected text, json or csv", d->name, value);
		return -EINVAL;
	case CCB_OPT_SET:
		if (!strchr(value, '=') || value[0] == '=') {
			snprintf(err, err_len, "--%s '%s': expected KEY=VALUE", d->name, value);
			return -EINVAL;
		}
		if (o->n_sets >= CCB_MAX_SETS) {
			snprintf(err, err_len, "--%s: more than %d settings", d->name,
			         CCB_MAX_SETS);
			return -E2BIG;
		}
		o->sets[o->n_sets++] = value;
		return 0;
	case CCB_OPT_PARAM:
		if (!strchr(value, '=') || value[0] == '=') {
			snprintf(err, err_len, "--%s '%s': expected KEY=VALUE", d->name, value);
			return -EINVAL;
		}
		if (o->n_params >= CCB_MAX_SETS) {
			snprintf(err, err_len, "--%s: more than %d overrides", d->name,
			         CCB_MAX_SETS);
			return -E2BIG;
		}
		o->params[o->n_params++] = value;
		return 0;
	case CCB_OPT_STEADY: {
		char why[200];
		if (ccb_steady_parse(value, d->min, d->max, (struct ccb_steady_spec *)field, why,
		                     sizeof(why)) < 0) {
			snprintf(err, err_len, "--%s '%s': %s", d->name, value, why);
			return -EINVAL;
		}
		return 0;
	}
	case CCB_OPT_PCT:
		r = ccb_parse_pct_centi(value, &v);
		break;
	case CCB_OPT_UINT:
		r = ccb_parse_u64(value, &v);
		break;
	case CCB_OPT_BYTES:
		r = ccb_parse_bytes(value, &v);
		break;
	case CCB_OPT_DURATION:
		r = ccb_parse_duration_usec(value, &v);
		break;
	}
	if (r == -ERANGE || (r == 0 && (v < d->min || v > d->max))) {
		char lo[32], hi[32];
		ccb_opt_format_value(d, d->min, lo, sizeof(lo));
		ccb_opt_format_value(d, d->max, hi, sizeof(hi));
		snprintf(err, err_len, "--%s '%s': out of range (%s to %s)", d->name, value, lo,
		         hi);
		return -EINVAL;
	}
	if (r < 0) {
		static const char *const what[] = {
		    [CCB_OPT_UINT] = "an integer",
		    [CCB_OPT_BYTES] = "a size such as 4096, 64K, 4M, 1G",
		    [CCB_OPT_DURATION] = "a duration such as 500ms, 10s, 2m",
		    [CCB_OPT_PCT] = "a percentage such as 5% or 2.5%",
		};
		snprintf(err, err_len, "--%s '%s': not %s", d->name, value, what[d->type]);
		return -EINVAL;
	}
	*(uint64_t *)field = v;
	return 0;
}

void ccb_opt_format_value(const struct ccb_opt_desc *d, uint64_t v, char *buf, size_t len)
{
	if (d->type == CCB_OPT_BYTES)
		ccb_format_bytes(v, buf, len);
	else if (d->type == CCB_OPT_DURATION)
		ccb_format_duration(v, buf, len);
	else if (d->type == CCB_OPT_PCT)
		ccb_format_pct_centi(v, buf, len);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

int ccb_opt_set(struct ccb_opts *o, const struct ccb_opt_desc *d, const char *value, char *err,
                size_t err_len)
{
	int r = set_value(o, d, value ? value : "", err, err_len);

	if (r == 0)
		o->given[d - ccb_opt_table] = true;
	return r;
}

bool ccb_opt_given(const struct ccb_opts *o, const char *name)
{
	const struct ccb_opt_desc *d = ccb_opt_find(name);

	return d && o->given[d - ccb_opt_table];
}

void ccb_opts_defaults(struct ccb_opts *o)
{
	char err[256];

	memset(o, 0, sizeof(*o));
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		/* Defaults are our own strings: a failure here is a bug in the table. */
		if (d->def && set_value(o, d, d->def, err, sizeof(err)) < 0) {
			fprintf(stderr, "ccbench: bad default: %s\n", err);
			abort();
		}
	}
}

static int check_readable(const char *opt, const char *path, char *err, size_t err_len)
{
	if (access(path, R_OK) < 0) {
		snprintf(err, err_len, "%s '%s': %s", opt, path, strerror(errno));
		return -EINVAL;
	}
	return 0;
}

const char *ccb_opts_first_given(const struct ccb_opts *o, unsigned optf)
{
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
		if ((d->flags & optf) && o->given[d - ccb_opt_table])
			return d->name;
	return NULL;
}

/* --rate and its companions: each makes sense only with it, and a rate
 * must be a positive number of ops or bytes per second. */
static int open_loop_validate(const struct ccb_opts *o, char *err, size_t err_len)
{
	static const char *const companions[] = {"arrivals", "max-in-flight", "max-backlog",
	                                         "rate-seed"};
	uint64_t bytes_s = 0, count = 0, usec = 0;
	double ops_s = 0;
	int r;

	if (!o->rate) {
		for (size_t i = 0; i < sizeof(companions) / sizeof(companions[0]); i++)
			if (ccb_opt_given(o, companions[i])) {
				snprintf(err, err_len, "--%s: only with --rate", companions[i]);
				return -EINVAL;
			}
		return 0;
	}
	r = ccb_parse_rate(o->rate, &ops_s, &bytes_s);
	if (r < 0 || (!bytes_s && !(ops_s > 0))) {
		snprintf(err, err_len, "--rate '%s': %s", o->rate,
		         r == -ERANGE ? "too large"
		                      : "expected ops per second above 0 (500, 2.5) or bytes per "
		                        "second with a unit (40MiB/s)");
		return -EINVAL;
	}
	if (ops_s > 1e7) {
		snprintf(err, err_len, "--rate '%s': more than 10000000 ops per second", o->rate);
		return -EINVAL;
	}
	r = ccb_parse_count_or_duration(o->max_backlog, &count, &usec);
	if (r < 0 || (!count && !usec)) {
		snprintf(
		    err, err_len,
		    "--max-backlog '%s': expected a count of waiting arrivals above 0 (64) or the "
		    "longest wait with a unit (500ms)",
		    o->max_backlog);
		return -EINVAL;
	}
	if (ccb_opt_given(o, "max-in-flight") && ccb_opt_given(o, "queue-depth")) {
		snprintf(err, err_len,
		         "--max-in-flight and --queue-depth: the same setting, give one");
		return -EINVAL;
	}
	if (ccb_opt_given(o, "rate-seed") && strcmp(o->arrivals, "poisson") != 0) {
		snprintf(err, err_len, "--rate-seed: only with --arrivals poisson");
		return -EINVAL;
	}
	return 0;
}

int ccb_opts_validate(const struct ccb_opts *o, unsigned cmd, char *err, size_t err_len)
{
	/* An option given to a command that does not take it is a mistake, not a no-op. */
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		if (o->given[d - ccb_opt_table] && !(d->cmds & cmd)) {
			snprintf(err, err_len, "--%s: not an option of this command", d->name);
			return -EINVAL;
		}
	}
	if (o->name && o->id) {
		snprintf(err, err_len, "--name '%s' and --id '%s': give one of them", o->name,
		         o->id);
		return -EINVAL;
	}
	if (o->name && !strchr(o->name, '.')) {
		snprintf(err, err_len, "--name '%s': expected TYPE.ID, e.g. client.admin", o->name);
		return -EINVAL;
	}
	if (o->conf && check_readable("--conf", o->conf, err, err_len) < 0)
		return -EINVAL;
	if (o->keyring && check_readable("--keyring", o->keyring, err, err_len) < 0)
		return -EINVAL;
	/* rados runs require it too: their path's validate says so. */
	if ((cmd & CCB_CMD_CLEANUP) && !o->pool) {
		snprintf(err, err_len, "--pool: required (-p POOL)");
		return -EINVAL;
	}
	if ((cmd & CCB_CMD_CLEANUP) && !o->run_name && !o->all_runs) {
		snprintf(err, err_len, "cleanup: give --run-name NAME or --all-runs");
		return -EINVAL;
	}
	if ((cmd & CCB_CMD_CLEANUP) && o->run_name && o->all_runs) {
		snprintf(err, err_len, "--run-name and --all-runs: give one of them");
		return -EINVAL;
	}
	if (ccb_opt_given(o, "steady-ramp") && !o->until_steady.on) {
		snprintf(err, err_len, "--steady-ramp: only with --until-steady");
		return -EINVAL;
	}
	/* A group's members add up over the window in which all ran: each
	 * stopping on its own steady state would shrink it to the first. */
	if (o->until_steady.on && o->group) {
		snprintf(
		    err, err_len,
		    "--until-steady: not with --group (each member would stop at its own time)");
		return -EINVAL;
	}
	if (o->osd_latency_cluster && !o->osd_latency_usec) {
		snprintf(err, err_len, "--osd-latency-cluster: only with --osd-latency DUR");
		return -EINVAL;
	}
	if (o->osd_latency_cluster && !ccb_is_fsid(o->osd_latency_cluster)) {
		snprintf(err, err_len,
		         "--osd-latency-cluster '%s': expected the cluster's fsid "
		         "(8-4-4-4-12 hex digits, as `ceph fsid` prints it)",
		         o->osd_latency_cluster);
		return -EINVAL;
	}
	if (o->osd_latency_usec && o->group) {
		snprintf(err, err_len,
		         "--osd-latency with --group: set the OSDs' latency once for the cluster, "
		         "not per member (run the members without it)");
		return -EINVAL;
	}
	if (open_loop_validate(o, err, err_len) < 0)
		return -EINVAL;
	if (!o->group != !ccb_opt_given(o, "members")) {
		snprintf(err, err_len, "--group NAME and --members N: give both or neither");
		return -EINVAL;
	}
	return 0;
}

json_t *ccb_opts_to_json(const struct ccb_opts *o, unsigned cmd)
{
	json_t *j = json_object();

	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		const void *field = (const char *)o + d->offset;
		json_t *v = NULL;

		/* Options this command takes only to shape its output (--format,
		 * --output, --quiet) say nothing about the workload. */
		if (!(d->cmds & cmd) || (d->cmds & cmd) == OUT)
			continue;
		switch (d->type) {
		case CCB_OPT_STR:
		case CCB_OPT_CHOICE:
		case CCB_OPT_NAME: {
			const char *s = *(const char *const *)field;
			v = s ? json_string(s) : json_null();
			break;
		}
		case CCB_OPT_FLAG:
			v = json_boolean(*(const bool *)field);
			break;
		case CCB_OPT_FORMAT:
			v = json_string(format_names[*(const enum ccb_format *)field]);
			break;
		case CCB_OPT_SET:
			v = json_array();
			for (unsigned i = 0; i < o->n_sets; i++)
				json_array_append_new(v, json_string(o->sets[i]));
			break;
		case CCB_OPT_PARAM:
			v = json_array();
			for (unsigned i = 0; i < o->n_params; i++)
				json_array_append_new(v, json_string(o->params[i]));
			break;
		case CCB_OPT_STEADY: {
			const struct ccb_steady_spec *sp = field;
			v = sp->on ? json_string(sp->text) : json_null();
			break;
		}
		case CCB_OPT_PCT:
		case CCB_OPT_UINT:
		case CCB_OPT_BYTES:
		case CCB_OPT_DURATION: {
			uint64_t n = *(const uint64_t *)field;
			/* Unset optional numbers (total, max-objects) read as null, not 0. */
			if (!d->def && !o->given[d - ccb_opt_table])
				v = json_null();
			else if (d->type == CCB_OPT_DURATION)
				v = json_real((double)n / 1e6); /* seconds, like the result's */
			else if (d->type == CCB_OPT_PCT)
				v = json_real((double)n / 100); /* percent */
			else
				v = json_integer((json_int_t)n);
			break;
		}
		}
		json_object_set_new(j, d->name, v);
	}
	return j;
}
