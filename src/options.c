/*
 * The option table and its parsers. Range checks live in the descriptors,
 * not in scattered ifs, so the CLI, --help and sweep configs agree.
 */
#include <ccbench/options.h>
#include <ccbench/path_cephfs.h>
#include <ccbench/units.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OFF(f)  offsetof(struct ccb_opts, f)
#define CONN    (CCB_CMD_CONN | CCB_CMD_KRBD | CCB_CMD_FS | CCB_CMD_GROUP | CCB_CMD_SWEEP)
#define RADOS   CCB_CMD_RADOS
#define CLEANUP CCB_CMD_CLEANUP
#define OUT     CCB_CMD_OUTPUT
#define RBD     CCB_CMD_RBD
#define KRBD    CCB_CMD_KRBD
#define RESTORE CCB_CMD_KRBD_RESTORE
#define FS      CCB_CMD_FS
#define SWEEP   CCB_CMD_SWEEP
#define REPORT  CCB_CMD_REPORT
#define COMPARE CCB_CMD_COMPARE
#define GROUP   CCB_CMD_GROUP
#define EXPLAIN CCB_CMD_EXPLAIN
#define WORK    CCB_CMD_WORKLOAD
#define U64MAX  UINT64_MAX

/* 1 TiB ops make no sense for a benchmark and keep products within 64 bits. */
#define MAX_OP_BYTES (1ull << 30)

const struct ccb_opt_desc ccb_opt_table[] = {
    {"conf", 'c', CCB_OPT_STR, OFF(conf), NULL, 0, 0, CONN, "PATH",
     "ceph.conf (default: $CEPH_CONF, else /etc/ceph/$cluster.conf)"},
    {"cluster", 0, CCB_OPT_STR, OFF(cluster), "ceph", 0, 0, CONN, "NAME", "cluster name"},
    {"name", 'n', CCB_OPT_STR, OFF(name), NULL, 0, 0, CONN, "TYPE.ID",
     "client name (default client.admin)"},
    {"id", 'i', CCB_OPT_STR, OFF(id), NULL, 0, 0, CONN, "ID", "client id (client.ID)"},
    {"keyring", 'k', CCB_OPT_STR, OFF(keyring), NULL, 0, 0, CONN, "PATH", "keyring file"},
    {"set", 'o', CCB_OPT_SET, OFF(sets), NULL, 0, 0, CONN, "KEY=VALUE",
     "set any librados/librbd option (repeatable)"},
    {"pool", 'p', CCB_OPT_STR, OFF(pool), NULL, 0, 0, RADOS | CLEANUP | RBD | KRBD | SWEEP | GROUP,
     "POOL", "pool to use (rbd: default rbd)"},
    {"namespace", 'N', CCB_OPT_STR, OFF(rados_namespace), "ccbench", 0, 0, RADOS | CLEANUP, "NS",
     "RADOS namespace of the run's objects"},
    {"connect-timeout", 0, CCB_OPT_DURATION, OFF(connect_timeout_usec), "30s", 1000000,
     3600000000ull, CONN, "DUR", "give up connecting after DUR"},
    {"op-timeout", 0, CCB_OPT_DURATION, OFF(op_timeout_usec), "60s", 1000000, 3600000000ull, CONN,
     "DUR", "abort the run when an op is outstanding longer than DUR"},
    {"queue-depth", 't', CCB_OPT_UINT, OFF(queue_depth), "16", 1, 1024, RADOS | RBD | KRBD, "N",
     "ops in flight per client (rados 16; rbd, krbd 1)"},
    {"clients", 0, CCB_OPT_UINT, OFF(clients), "1", 1, 256, RADOS | RBD | FS, "N",
     "independent connections, each with its own queue"},
    {"op-size", 'b', CCB_OPT_BYTES, OFF(op_size_bytes), "4M", 1, MAX_OP_BYTES, RADOS, "BYTES",
     "bytes per op"},
    {"object-size", 0, CCB_OPT_BYTES, OFF(object_size_bytes), NULL, 1, 64ull << 30,
     RADOS | RBD | KRBD | FS, "BYTES",
     "object size (rados: default op size, larger objects take op-size writes; rbd: power "
     "of two, 4K to 32M)"},
    {"duration", 'd', CCB_OPT_DURATION, OFF(duration_usec), "10s", 1000, 31ull * 86400000000ull,
     RADOS | RBD | KRBD | FS, "DUR",
     "run time (rbd, krbd: default one pass over the image; fs: default the whole file)"},
    {"total", 0, CCB_OPT_BYTES, OFF(total_bytes), NULL, 1, U64MAX, RADOS | RBD | KRBD, "BYTES",
     "stop after BYTES (with --duration too: whichever comes first)"},
    {"max-objects", 0, CCB_OPT_UINT, OFF(max_objects), NULL, 1, 1ull << 40, RADOS, "N",
     "stop writing after N objects"},
    {"run-name", 0, CCB_OPT_NAME, OFF(run_name), NULL, 0, 0, RADOS | CLEANUP, "NAME",
     "object name prefix (default: unique per run)"},
    {"no-cleanup", 0, CCB_OPT_FLAG, OFF(no_cleanup), NULL, 0, 0, RADOS, NULL,
     "keep the objects written (for seq/rand)"},
    {"no-verify", 0, CCB_OPT_FLAG, OFF(no_verify), NULL, 0, 0, RADOS, NULL,
     "do not check object headers on reads"},
    {"reuse", 0, CCB_OPT_FLAG, OFF(reuse), NULL, 0, 0, RADOS | FS, NULL,
     "overwrite a run name whose objects exist (fs: use an existing --dir)"},
    {"all-runs", 0, CCB_OPT_FLAG, OFF(all_runs), NULL, 0, 0, CLEANUP, NULL,
     "remove the objects of every ccbench run in the namespace"},
    {"force", 0, CCB_OPT_FLAG, OFF(force), NULL, 0, 0, CLEANUP, NULL,
     "with --run-name: remove RUN.<digits> objects even when RUN.meta is missing"},
    /* rbd */
    {"image", 0, CCB_OPT_STR, OFF(image), NULL, 0, 0, RBD, "POOL/NAME",
     "use this existing image (read-only for read modes) instead of a temporary one"},
    {"size", 's', CCB_OPT_BYTES, OFF(image_size_bytes), "1G", 4096, 1ull << 50, RBD | KRBD, "BYTES",
     "size of the temporary image"},
    {"order", 0, CCB_OPT_UINT, OFF(order), NULL, 12, 25, RBD | KRBD, "N",
     "object size 2^N bytes (12 to 25)"},
    {"stripe-unit", 0, CCB_OPT_BYTES, OFF(stripe_unit_bytes), NULL, 4096, 1ull << 25,
     RBD | KRBD | FS, "BYTES", "stripe unit (divides the object size)"},
    {"stripe-count", 0, CCB_OPT_UINT, OFF(stripe_count), NULL, 1, 4096, RBD | KRBD | FS, "N",
     "objects per stripe"},
    {"image-features", 0, CCB_OPT_STR, OFF(image_features), NULL, 0, 0, RBD | KRBD, "LIST",
     "features of the temporary image, e.g. layering,exclusive-lock"},
    {"data-pool", 0, CCB_OPT_STR, OFF(data_pool), NULL, 0, 0, RBD | KRBD | FS, "POOL",
     "data pool of the temporary image or of the files"},
    {"allow-write-existing", 0, CCB_OPT_FLAG, OFF(allow_write_existing), NULL, 0, 0, RBD, NULL,
     "let a write mode write into --image"},
    {"keep", 0, CCB_OPT_FLAG, OFF(keep), NULL, 0, 0, RBD | KRBD | FS, NULL,
     "keep the temporary image or directory"},
    {"io-size", 0, CCB_OPT_BYTES, OFF(io_size_bytes), "64K", 512, MAX_OP_BYTES, RBD | KRBD, "BYTES",
     "bytes per I/O"},
    {"pattern", 0, CCB_OPT_CHOICE, OFF(pattern), "seq", 0, 0, RBD, "seq|rand",
     "offsets for modes that do not say (rw)"},
    {"rw-mix-read", 0, CCB_OPT_UINT, OFF(rw_mix_read_pct), "50", 0, 100, RBD, "PCT",
     "share of reads in rw mode"},
    {"readahead", 0, CCB_OPT_BYTES, OFF(readahead_bytes), NULL, 0, 1ull << 32, RBD, "BYTES",
     "rbd_readahead_max_bytes (0 disables)"},
    {"readahead-trigger", 0, CCB_OPT_UINT, OFF(readahead_trigger), NULL, 1, 1u << 20, RBD, "N",
     "rbd_readahead_trigger_requests"},
    {"readahead-disable-after", 0, CCB_OPT_BYTES, OFF(readahead_disable_after_bytes), "0", 0,
     U64MAX, RBD, "BYTES", "rbd_readahead_disable_after_bytes (0: never)"},
    {"cache-policy", 0, CCB_OPT_CHOICE, OFF(cache_policy), NULL, 0, 0, RBD,
     "writeback|writethrough|writearound", "rbd_cache_policy"},
    {"cache-size", 0, CCB_OPT_BYTES, OFF(cache_size_bytes), NULL, 0, 1ull << 40, RBD, "BYTES",
     "rbd_cache_size"},
    {"no-cache", 0, CCB_OPT_FLAG, OFF(no_cache), NULL, 0, 0, RBD, NULL, "rbd_cache=false"},
    {"sim-osd-latency", 0, CCB_OPT_DURATION, OFF(sim_osd_latency_usec), NULL, 1, 10000000, RBD,
     "DUR", "inject about DUR of OSD latency on the client (a simulated run)"},
    /* krbd */
    {"device", 0, CCB_OPT_STR, OFF(device), NULL, 0, 0, KRBD | RESTORE, "DEV",
     "block device to read (/dev/rbdN, /dev/rbd/POOL/IMAGE, any block device)"},
    {"map", 0, CCB_OPT_STR, OFF(map), NULL, 0, 0, KRBD, "POOL/IMAGE",
     "map this image for the run, unmap at the end"},
    {"map-via", 0, CCB_OPT_CHOICE, OFF(map_via), "auto", 0, 0, KRBD, "auto|kernel|fuse-loop",
     "how --map exposes the image"},
    {"map-options", 0, CCB_OPT_STR, OFF(map_options), NULL, 0, 0, KRBD, "OPTS",
     "kernel map options (queue_depth=N,alloc_size=N,...)"},
    {"read-ahead-kb", 0, CCB_OPT_UINT, OFF(read_ahead_kb), NULL, 0, 1u << 20, KRBD, "KB",
     "set /sys/block/DEV/queue/read_ahead_kb for the run (restored after)"},
    {"offset", 0, CCB_OPT_BYTES, OFF(offset_bytes), "0", 0, U64MAX, KRBD, "BYTES",
     "start reading at BYTES"},
    {"streams", 0, CCB_OPT_UINT, OFF(streams), "1", 1, 256, KRBD, "N",
     "readers on separate regions"},
    {"direct", 0, CCB_OPT_FLAG, OFF(direct), NULL, 0, 0, KRBD, NULL,
     "O_DIRECT reads through io_uring at --queue-depth"},
    /* fs */
    {"file-size", 0, CCB_OPT_BYTES, OFF(file_size_bytes), "1G", 4096, 1ull << 50, FS, "BYTES",
     "bytes per file (per client), like dd count x bs"},
    {"block-size", 0, CCB_OPT_BYTES, OFF(block_size_bytes), "4M", 4096, 1ull << 30, FS, "BYTES",
     "bytes per write or read call, like dd bs"},
    {"dir", 0, CCB_OPT_STR, OFF(dir), NULL, 0, 0, FS, "PATH",
     "CephFS directory of the run (default /ccbench-RUN; removed unless --keep)"},
    {"files", 0, CCB_OPT_STR, OFF(files_spec), "1:4k:0:1", 0, 0, FS, "N[:MAX[:MIN[:DIRS]]]",
     "fs meta: bonnie++ -n spec, N x 1024 files (also given as -n SPEC)"},
    /* group */
    {"group", 0, CCB_OPT_NAME, OFF(group), NULL, 0, 0, WORK, "NAME",
     "join group NAME: start with the other members, results add up"},
    {"members", 0, CCB_OPT_UINT, OFF(members), NULL, 1, 1024, WORK, "N", "members of --group"},
    {"group-timeout", 0, CCB_OPT_DURATION, OFF(group_timeout_usec), "60s", 1000000, 86400000000ull,
     WORK, "DUR", "give up when the group is not complete after DUR"},
    {"group-pool", 0, CCB_OPT_STR, OFF(group_pool), NULL, 0, 0, WORK | GROUP, "POOL",
     "pool of the group objects (default: --pool, else rbd)"},
    {"group-cleanup", 0, CCB_OPT_FLAG, OFF(group_cleanup), NULL, 0, 0, GROUP, NULL,
     "group report: remove the group's objects afterwards"},
    /* sweep, report, compare */
    {"json", 0, CCB_OPT_STR, OFF(json_file), NULL, 0, 0, SWEEP, "FILE",
     "write all points and runs as JSON"},
    {"csv", 0, CCB_OPT_STR, OFF(csv_file), NULL, 0, 0, SWEEP | REPORT | GROUP, "FILE",
     "write one CSV row per point"},
    {"svg", 0, CCB_OPT_STR, OFF(svg_file), NULL, 0, 0, SWEEP | REPORT | GROUP, "FILE",
     "write a self-contained SVG chart"},
    {"seed", 0, CCB_OPT_UINT, OFF(seed), NULL, 0, U64MAX, SWEEP, "N",
     "shuffle the order of runs with this seed (default: interleaved)"},
    {"param", 0, CCB_OPT_PARAM, OFF(params), NULL, 0, 0, SWEEP, "KEY=VALUE",
     "override a config parameter; a matrix axis becomes this one value, or the values of "
     "a JSON list; KEY= removes it (repeatable)"},
    {"repeat", 0, CCB_OPT_UINT, OFF(repeat), NULL, 1, 1000, SWEEP, "N",
     "run every point N times (overrides the config's repeat)"},
    {"dry-run", 0, CCB_OPT_FLAG, OFF(dry_run), NULL, 0, 0, SWEEP, NULL,
     "check every point, print the grid and an estimate of bytes and time; contact nothing"},
    {"tolerance", 0, CCB_OPT_STR, OFF(tolerance), "10%", 0, 0, COMPARE, "PCT",
     "a point regresses when worse by more than PCT"},
    {"metric", 0, CCB_OPT_CHOICE, OFF(metric), "bandwidth", 0, 0, COMPARE, "bandwidth|p99",
     "what compare judges"},
    {"allow-distrust", 0, CCB_OPT_FLAG, OFF(allow_distrust), NULL, 0, 0, COMPARE, NULL,
     "gate on points whose explain says distrust (refused otherwise)"},
    {"format", 'f', CCB_OPT_FORMAT, OFF(format), "text", 0, 0, OUT | GROUP | EXPLAIN,
     "text|json|csv", "result format"},
    {"output", 0, CCB_OPT_STR, OFF(output), NULL, 0, 0, OUT, "FILE",
     "write the result to FILE instead of stdout"},
    {"explain", 0, CCB_OPT_CHOICE, OFF(explain), "on", 0, 0, OUT, "on|off",
     "add the explain list (why lines: what limited the result) to the result"},
    {"quiet", 'q', CCB_OPT_FLAG, OFF(quiet), NULL, 0, 0, OUT | CLEANUP | RESTORE | SWEEP | GROUP,
     NULL, "no progress on stderr"},
    {NULL, 0, 0, 0, NULL, 0, 0, 0, NULL, NULL},
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
		if (d->type == CCB_OPT_BYTES) {
			ccb_format_bytes(d->min, lo, sizeof(lo));
			ccb_format_bytes(d->max, hi, sizeof(hi));
		} else if (d->type == CCB_OPT_DURATION) {
			ccb_format_duration(d->min, lo, sizeof(lo));
			ccb_format_duration(d->max, hi, sizeof(hi));
		} else {
			snprintf(lo, sizeof(lo), "%llu", (unsigned long long)d->min);
			snprintf(hi, sizeof(hi), "%llu", (unsigned long long)d->max);
		}
		snprintf(err, err_len, "--%s '%s': out of range (%s to %s)", d->name, value, lo,
		         hi);
		return -EINVAL;
	}
	if (r < 0) {
		static const char *const what[] = {
		    [CCB_OPT_UINT] = "an integer",
		    [CCB_OPT_BYTES] = "a size such as 4096, 64K, 4M, 1G",
		    [CCB_OPT_DURATION] = "a duration such as 500ms, 10s, 2m",
		};
		snprintf(err, err_len, "--%s '%s': not %s", d->name, value, what[d->type]);
		return -EINVAL;
	}
	*(uint64_t *)field = v;
	return 0;
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

int ccb_rbd_features_parse(const char *list, uint64_t *mask, char *err, size_t err_len)
{
	static const struct {
		const char *name;
		uint64_t bit;
	} names[] = {
	    {"layering", 1ull << 0},   {"striping", 1ull << 1},  {"exclusive-lock", 1ull << 2},
	    {"object-map", 1ull << 3}, {"fast-diff", 1ull << 4}, {"deep-flatten", 1ull << 5},
	    {"journaling", 1ull << 6}, {"data-pool", 1ull << 7},
	};
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t l = strcspn(p, ",");
		bool found = false;

		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			if (strlen(names[i].name) == l && strncmp(names[i].name, p, l) == 0) {
				*mask |= names[i].bit;
				found = true;
			}
		}
		if (!found) {
			snprintf(
			    err, err_len,
			    "--image-features '%s': unknown feature '%.*s' (layering, striping, "
			    "exclusive-lock, object-map, fast-diff, deep-flatten, journaling, "
			    "data-pool)",
			    list, (int)l, p);
			return -EINVAL;
		}
		p += l;
		if (*p == ',')
			p++;
	}
	return 0;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

uint64_t ccb_opts_rbd_object_bytes(const struct ccb_opts *o)
{
	if (o->order)
		return 1ull << o->order;
	if (o->object_size_bytes)
		return o->object_size_bytes;
	return 4ull << 20; /* librbd's default order 22 */
}

static int validate_rbd(const struct ccb_opts *o, char *err, size_t err_len)
{
	static const char *const temp_only[] = {"size",        "order",        "object-size",
	                                        "stripe-unit", "stripe-count", "image-features",
	                                        "data-pool",   "keep"};
	uint64_t obj = ccb_opts_rbd_object_bytes(o);
	char a[32], b[32];

	if (o->image) {
		for (size_t i = 0; i < sizeof(temp_only) / sizeof(temp_only[0]); i++) {
			if (ccb_opt_given(o, temp_only[i])) {
				snprintf(err, err_len,
				         "--%s: applies to the temporary image, not to --image %s",
				         temp_only[i], o->image);
				return -EINVAL;
			}
		}
		const char *slash = strchr(o->image, '/');
		if (slash && (slash == o->image || !slash[1] || strchr(slash + 1, '/'))) {
			snprintf(err, err_len, "--image '%s': expected POOL/NAME or NAME",
			         o->image);
			return -EINVAL;
		}
	}
	if (o->order && ccb_opt_given(o, "object-size")) {
		snprintf(err, err_len, "--order and --object-size: give one of them");
		return -EINVAL;
	}
	if (ccb_opt_given(o, "object-size") &&
	    (!is_pow2(o->object_size_bytes) || o->object_size_bytes < 4096 ||
	     o->object_size_bytes > (32u << 20))) {
		ccb_format_bytes(o->object_size_bytes, a, sizeof(a));
		snprintf(err, err_len, "--object-size %s: must be a power of two from 4K to 32M",
		         a);
		return -EINVAL;
	}
	if (o->stripe_unit_bytes && obj % o->stripe_unit_bytes) {
		ccb_format_bytes(o->stripe_unit_bytes, a, sizeof(a));
		ccb_format_bytes(obj, b, sizeof(b));
		snprintf(err, err_len, "--stripe-unit %s: does not divide the object size %s", a,
		         b);
		return -EINVAL;
	}
	if (!o->image && o->io_size_bytes > o->image_size_bytes) {
		ccb_format_bytes(o->io_size_bytes, a, sizeof(a));
		ccb_format_bytes(o->image_size_bytes, b, sizeof(b));
		snprintf(err, err_len, "--io-size %s: larger than the image (--size %s)", a, b);
		return -EINVAL;
	}
	if (o->image_features) {
		uint64_t mask;
		if (ccb_rbd_features_parse(o->image_features, &mask, err, err_len) < 0)
			return -EINVAL;
	}
	if (o->no_cache &&
	    (o->cache_policy || ccb_opt_given(o, "cache-size") || ccb_opt_given(o, "readahead"))) {
		snprintf(err, err_len,
		         "--no-cache: conflicts with --cache-policy, --cache-size and --readahead");
		return -EINVAL;
	}
	return 0;
}

static int validate_krbd(const struct ccb_opts *o, char *err, size_t err_len)
{
	static const char *const temp_only[] = {"size",        "order",        "object-size",
	                                        "stripe-unit", "stripe-count", "image-features",
	                                        "data-pool",   "keep"};

	if (o->device && o->map) {
		snprintf(err, err_len, "krbd: give one of --device DEV or --map POOL/IMAGE");
		return -EINVAL;
	}
	/* Neither: a temporary prefilled image, mapped for the run, laid out by
	 * the rbd layout flags (the same image `rbd read --image` can read). */
	for (size_t i = 0; (o->device || o->map) && i < sizeof(temp_only) / sizeof(temp_only[0]);
	     i++) {
		if (ccb_opt_given(o, temp_only[i])) {
			snprintf(err, err_len, "--%s: applies to the temporary image, not to --%s",
			         temp_only[i], o->device ? "device" : "map");
			return -EINVAL;
		}
	}
	if (o->map_options && !o->map) {
		snprintf(err, err_len, "--map-options: only with --map");
		return -EINVAL;
	}
	if (o->map && (!strchr(o->map, '/') || o->map[0] == '/')) {
		snprintf(err, err_len, "--map '%s': expected POOL/IMAGE", o->map);
		return -EINVAL;
	}
	if (o->queue_depth > 1 && !o->direct) {
		snprintf(
		    err, err_len,
		    "--queue-depth %llu: buffered reads are one per stream; use --streams N, or "
		    "--direct for O_DIRECT reads at depth",
		    (unsigned long long)o->queue_depth);
		return -EINVAL;
	}
	if (o->direct && o->io_size_bytes % 512) {
		snprintf(err, err_len, "--io-size %llu: --direct needs a multiple of 512 bytes",
		         (unsigned long long)o->io_size_bytes);
		return -EINVAL;
	}
	return 0;
}

/* fs: the -n spec, block vs file size, the file layout, --dir (path_cephfs.c). */
static int validate_fs(const struct ccb_opts *o, char *err, size_t err_len)
{
	return ccb_fs_validate(o, err, err_len);
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
	if ((cmd & (CCB_CMD_RADOS | CCB_CMD_CLEANUP)) && !o->pool) {
		snprintf(err, err_len, "--pool: required (-p POOL)");
		return -EINVAL;
	}
	if (cmd & CCB_CMD_RADOS) {
		uint64_t obj = o->object_size_bytes ? o->object_size_bytes : o->op_size_bytes;
		char a[32], b[32];
		if (o->op_size_bytes > obj) {
			ccb_format_bytes(o->op_size_bytes, a, sizeof(a));
			ccb_format_bytes(obj, b, sizeof(b));
			snprintf(err, err_len, "--op-size %s: larger than --object-size %s", a, b);
			return -EINVAL;
		}
		if (obj % o->op_size_bytes) {
			ccb_format_bytes(o->op_size_bytes, a, sizeof(a));
			ccb_format_bytes(obj, b, sizeof(b));
			snprintf(err, err_len, "--object-size %s: not a multiple of --op-size %s",
			         b, a);
			return -EINVAL;
		}
		if (o->op_size_bytes < 64 && !o->no_verify) {
			snprintf(err, err_len,
			         "--op-size %llu: ops under 64 bytes cannot carry the verification "
			         "header; add --no-verify",
			         (unsigned long long)o->op_size_bytes);
			return -EINVAL;
		}
	}
	if ((cmd & CCB_CMD_RBD) && validate_rbd(o, err, err_len) < 0)
		return -EINVAL;
	if ((cmd & CCB_CMD_KRBD) && validate_krbd(o, err, err_len) < 0)
		return -EINVAL;
	if ((cmd & CCB_CMD_FS) && validate_fs(o, err, err_len) < 0)
		return -EINVAL;
	if ((cmd & CCB_CMD_CLEANUP) && !o->run_name && !o->all_runs) {
		snprintf(err, err_len, "cleanup: give --run-name NAME or --all-runs");
		return -EINVAL;
	}
	if ((cmd & CCB_CMD_CLEANUP) && o->run_name && o->all_runs) {
		snprintf(err, err_len, "--run-name and --all-runs: give one of them");
		return -EINVAL;
	}
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
		case CCB_OPT_UINT:
		case CCB_OPT_BYTES:
		case CCB_OPT_DURATION: {
			uint64_t n = *(const uint64_t *)field;
			/* Unset optional numbers (total, max-objects) read as null, not 0. */
			if (!d->def && !o->given[d - ccb_opt_table])
				v = json_null();
			else if (d->type == CCB_OPT_DURATION)
				v = json_real((double)n / 1e6); /* seconds, like the result's */
			else
				v = json_integer((json_int_t)n);
			break;
		}
		}
		json_object_set_new(j, d->name, v);
	}
	return j;
}
