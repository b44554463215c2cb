/*
 * The option table's parsers (the table: options_table.c). Range checks and
 * choices live in the descriptors, not in scattered ifs, so the CLI, --help
 * and sweep configs agree.
 */
#include <ccbench/options.h>
#include <ccbench/units.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The index of @p value in @p d's choices, or -1. */
static int choice_index(const struct ccb_opt_desc *d, const char *value)
{
	for (int i = 0; d->choices && d->choices[i]; i++)
		if (strcmp(d->choices[i], value) == 0)
			return i;
	return -1;
}

/* @p d's choices into @p buf, @p sep between them and @p last before the last. */
static const char *join_choices(const struct ccb_opt_desc *d, const char *sep, const char *last,
                                char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; d->choices[i] && n < len; i++) {
		const char *before = !i ? "" : d->choices[i + 1] ? sep : last;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", before, d->choices[i]);
	}
	return buf;
}

const char *ccb_opt_argname(const struct ccb_opt_desc *d, char *buf, size_t len)
{
	return d->choices ? join_choices(d, "|", "|", buf, len) : d->argname;
}

static int set_value(struct ccb_opts *o, const struct ccb_opt_desc *d, const char *value, char *err,
                     size_t err_len)
{
	void *field = (char *)o + d->offset;
	char words[256];
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
	case CCB_OPT_CHOICE:
		if (choice_index(d, value) >= 0) {
			*(const char **)field = value;
			return 0;
		}
		snprintf(err, err_len, "--%s '%s': expected one of %s", d->name, value,
		         join_choices(d, "|", "|", words, sizeof(words)));
		return -EINVAL;
	case CCB_OPT_FORMAT:
		if (choice_index(d, value) >= 0) {
			*(enum ccb_format *)field = (enum ccb_format)choice_index(d, value);
			return 0;
		}
		snprintf(err, err_len, "--%s '%s': expected %s", d->name, value,
		         join_choices(d, ", ", " or ", words, sizeof(words)));
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
	case CCB_OPT_LIST: {
		struct ccb_opt_list *l = field;

		if (!value[0]) {
			snprintf(err, err_len, "--%s: empty value", d->name);
			return -EINVAL;
		}
		if (l->n >= CCB_OPT_LIST_MAX) {
			snprintf(err, err_len, "--%s: more than %d", d->name, CCB_OPT_LIST_MAX);
			return -E2BIG;
		}
		l->v[l->n++] = value;
		return 0;
	}
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

/* A row of a path's own: the bit of its path, else 0. */
static uint64_t path_bit_of(const struct ccb_opt_desc *d)
{
	return d->cmds & CCB_CMD_PATHS;
}

/* Before a value of path @p bit goes into the path block: a block that holds
 * another path's values is cleared (what was given for that path stays
 * given, and is refused as an option the command does not take). */
static void claim_block(struct ccb_opts *o, uint64_t bit)
{
	if (o->path_block_of != bit) {
		if (o->path_block_of)
			memset(&o->path_block, 0, sizeof(o->path_block));
		o->path_block_of = bit;
	}
}

void ccb_opts_block_select(struct ccb_opts *o, uint64_t path_bit)
{
	char err[256];

	if (o->path_block_of != path_bit || !path_bit) {
		memset(&o->path_block, 0, sizeof(o->path_block));
		o->path_block_of = path_bit;
	}
	for (const struct ccb_opt_desc *d = ccb_opt_table; path_bit && d->name; d++) {
		if (!(path_bit_of(d) & path_bit) || o->given[d - ccb_opt_table] || !d->def)
			continue;
		/* Defaults are our own strings: a failure here is a bug in the table. */
		if (set_value(o, d, d->def, err, sizeof(err)) < 0) {
			fprintf(stderr, "ccbench: bad default: %s\n", err);
			abort();
		}
	}
}

int ccb_opt_set(struct ccb_opts *o, const struct ccb_opt_desc *d, const char *value, char *err,
                size_t err_len)
{
	int r;

	/* A value of a path's own goes into its block; a refused value
	 * changes nothing, the block's owner included. */
	if (path_bit_of(d) && o->path_block_of != path_bit_of(d)) {
		struct ccb_opts copy = *o;

		claim_block(&copy, path_bit_of(d));
		r = set_value(&copy, d, value ? value : "", err, err_len);
		if (r == 0) {
			*o = copy;
			o->given[d - ccb_opt_table] = true;
		}
		return r;
	}
	r = set_value(o, d, value ? value : "", err, err_len);

	if (r == 0)
		o->given[d - ccb_opt_table] = true;
	return r;
}

bool ccb_opt_given(const struct ccb_opts *o, const char *name)
{
	const struct ccb_opt_desc *d = ccb_opt_find(name);

	return d && o->given[d - ccb_opt_table];
}

/* An earlier row holds the same value (@p d is another of its names). */
static bool earlier_spelling(const struct ccb_opt_desc *d)
{
	for (const struct ccb_opt_desc *e = ccb_opt_table; e < d; e++)
		if ((e->flags & CCB_OPTF_SPELLING) && e->offset == d->offset)
			return true;
	return false;
}

const struct ccb_opt_desc *ccb_opt_spelling(const struct ccb_opt_desc *d, uint64_t cmd)
{
	if (d->cmds & cmd)
		return d;
	if (!(d->flags & CCB_OPTF_SPELLING))
		return NULL;
	for (const struct ccb_opt_desc *e = ccb_opt_table; e->name; e++)
		if ((e->flags & CCB_OPTF_SPELLING) && e->offset == d->offset && (e->cmds & cmd))
			return e;
	return NULL;
}

void ccb_opts_defaults(struct ccb_opts *o)
{
	char err[256];

	memset(o, 0, sizeof(*o));
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		/* Defaults are our own strings: a failure here is a bug in the table. */
		if (d->def && !path_bit_of(d) && set_value(o, d, d->def, err, sizeof(err)) < 0) {
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
int ccb_opts_validate_open_loop(const struct ccb_opts *o, char *err, size_t err_len)
{
	static const char *const companions[] = {"arrivals", "max-in-flight", "max-backlog",
	                                         "rate-seed", "busy-poll"};
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

int ccb_opts_validate(const struct ccb_opts *o, uint64_t cmd, char *err, size_t err_len)
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
	/* The capacity search sets each step's rate itself: its command
	 * checks the open loop's companions (struct ccb_command.validate). */
	if (!(cmd & CCB_CMD_CAPACITY) && ccb_opts_validate_open_loop(o, err, err_len) < 0)
		return -EINVAL;
	/* group manifest names the group itself (NAME) and needs the size. */
	if ((cmd & CCB_CMD_K8S) && !ccb_opt_given(o, "members")) {
		snprintf(err, err_len, "group manifest: --members N: required");
		return -EINVAL;
	}
	if (!(cmd & CCB_CMD_K8S) && !o->group != !ccb_opt_given(o, "members")) {
		snprintf(err, err_len, "--group NAME and --members N: give both or neither");
		return -EINVAL;
	}
	return 0;
}

json_t *ccb_opts_to_json(const struct ccb_opts *o, uint64_t cmd)
{
	json_t *j = json_object();

	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		const void *field = (const char *)o + d->offset;
		json_t *v = NULL;

		/* Options this command takes only to shape its output (--format,
		 * --output, --quiet) say nothing about the workload. */
		if (!(d->cmds & cmd) || (d->cmds & cmd) == CCB_CMD_OUTPUT)
			continue;
		/* A path's own option has a value only in that path's block. */
		if (path_bit_of(d) && !(path_bit_of(d) & o->path_block_of))
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
			v = json_string(d->choices[*(const enum ccb_format *)field]);
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
		case CCB_OPT_LIST: {
			const struct ccb_opt_list *l = field;
			v = json_array();
			for (unsigned i = 0; i < l->n; i++)
				json_array_append_new(v, json_string(l->v[i]));
			break;
		}
		case CCB_OPT_PCT:
		case CCB_OPT_UINT:
		case CCB_OPT_BYTES:
		case CCB_OPT_DURATION: {
			uint64_t n = *(const uint64_t *)field;
			/* Unset optional numbers (total, max-objects) read as null, not 0;
			 * another name of a value with a default has one too. */
			if (!d->def && !earlier_spelling(d) && !o->given[d - ccb_opt_table])
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
