/* Unit tests for src/options/options.c: the descriptor table, its parsers, cross rules, JSON view.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ccbench/commands.h>
#include "ccbench/options.h"
#include "ccbench/path.h"
#include "ccbench/units.h"
#include "../../src/paths/rados/path_rados.h"
#include <ccbench/cli.h>
#include <ccbench/path_rbd.h>
#include "../../src/paths/rados/rados_opts.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The masks cli.c gives its commands. */
#define CMD_RADOS   (ccb_cli_command_find("rados write")->mask)
#define CMD_CLEANUP (ccb_cli_command_find("cleanup")->mask)

#define MIB (1ull << 20)

static const struct ccb_opt_desc *desc(const char *name)
{
	const struct ccb_opt_desc *d = ccb_opt_find(name);

	if (!d)
		fail_msg("no descriptor '%s'", name);
	return d;
}

static size_t idx_of(const struct ccb_opt_desc *d)
{
	return (size_t)(d - ccb_opt_table);
}

/* Set an option that must parse. */
static void set_ok(struct ccb_opts *o, const char *name, const char *value)
{
	char err[256] = "";
	int r = ccb_opt_set(o, desc(name), value, err, sizeof(err));

	if (r != 0)
		fail_msg("--%s '%s': ret %d (%s)", name, value ? value : "(null)", r, err);
}

/*
 * Set an option that must be refused with -EINVAL and a message naming
 * the option and the value; the field and its given flag stay untouched.
 */
static void set_bad(const char *name, const char *value)
{
	const struct ccb_opt_desc *d = desc(name);
	struct ccb_opts o, before;
	char err[256] = "";
	char want_name[80], want_value[80];
	int r;

	ccb_opts_defaults(&o);
	before = o;
	r = ccb_opt_set(&o, d, value, err, sizeof(err));
	if (r != -EINVAL)
		fail_msg("--%s '%s': ret %d, want -EINVAL", name, value, r);
	snprintf(want_name, sizeof(want_name), "--%s", name);
	snprintf(want_value, sizeof(want_value), "'%s'", value);
	if (!strstr(err, want_name) || !strstr(err, want_value))
		fail_msg("--%s '%s': message \"%s\" does not name option and value", name, value,
		         err);
	if (memcmp(&o, &before, sizeof(o)) != 0)
		fail_msg("--%s '%s': refused value changed the options", name, value);
}

/* Defaults plus a pool: a valid `rados write`. */
static void rados_base(struct ccb_opts *o)
{
	ccb_opts_defaults(o);
	ccb_opts_block_select(o, ccb_opt_group_bit(ccb_rados_options));
	set_ok(o, "pool", "rbd");
}

/* The generic rules, then (for rados) the path's own, as ccb_cli_validate() does. */
static int validate(const struct ccb_opts *o, uint64_t cmd, char *err, size_t err_len)
{
	int r = ccb_opts_validate(o, cmd, err, err_len);

	if (r == 0 && (cmd & ccb_opt_group_bit(ccb_rados_options)))
		r = ccb_path_rados.validate(o, err, err_len);
	return r;
}

static void validate_fails(const struct ccb_opts *o, uint64_t cmd, const char *needle)
{
	char err[256] = "";
	int r = validate(o, cmd, err, sizeof(err));

	if (r != -EINVAL)
		fail_msg("validate: ret %d, want -EINVAL (expected \"%s\")", r, needle);
	if (!strstr(err, needle))
		fail_msg("validate: message \"%s\" lacks \"%s\"", err, needle);
}

static void validate_ok(const struct ccb_opts *o, uint64_t cmd)
{
	char err[256] = "";
	int r = validate(o, cmd, err, sizeof(err));

	if (r != 0)
		fail_msg("validate: ret %d (%s)", r, err);
}

static void test_table_sane(void **state)
{
	size_t n = ccb_opt_count();

	(void)state;
	assert_true(n > 0);
	assert_true(n <= ARRAY_SIZE(((struct ccb_opts *)0)->given));
	assert_null(ccb_opt_table[n].name);
	assert_null(ccb_opt_find("no-such-option"));
	assert_null(ccb_opt_find(""));
	for (size_t i = 0; i < n; i++) {
		const struct ccb_opt_desc *d = &ccb_opt_table[i];

		assert_ptr_equal(ccb_opt_find(d->name), d);
		assert_non_null(d->help);
		assert_true(d->cmds != 0);
		assert_true(d->offset < sizeof(struct ccb_opts));
		for (size_t j = i + 1; j < n; j++) {
			if (strcmp(d->name, ccb_opt_table[j].name) == 0)
				fail_msg("duplicate option --%s", d->name);
			if (d->short_name && d->short_name == ccb_opt_table[j].short_name)
				fail_msg("duplicate short option -%c", d->short_name);
		}
		if (d->type == CCB_OPT_UINT || d->type == CCB_OPT_BYTES ||
		    d->type == CCB_OPT_DURATION)
			assert_true(d->min <= d->max);
	}
}

/* A path's own rows (in its folder) are in the one table, between the
 * shared rows and the late ones, and building again keeps the table. */
static void test_path_rows_assembled(void **state)
{
	const struct ccb_opt_desc *table = ccb_opt_table, *pool = ccb_opt_find("pool"),
	                          *image = ccb_opt_find("image"), *mount = ccb_opt_find("mount"),
	                          *max_objects = ccb_opt_find("max-objects"),
	                          *group = ccb_opt_find("group");

	(void)state;
	assert_non_null(image);
	assert_non_null(mount);
	assert_non_null(max_objects);
	assert_true(image->cmds == ccb_opt_group_bit(ccb_rbd_options));
	assert_true(pool < max_objects && max_objects < image && image < mount && mount < group);
	assert_int_equal(ccb_commands_init(), 0);
	assert_ptr_equal(ccb_opt_table, table);
	assert_int_equal(ccb_opt_table_build(NULL, 0), 0);
	assert_ptr_equal(ccb_opt_find("image"), image);
}

/* Every default parses through the same path as user input, and lands where ccb_opts_defaults puts
 * it. */
static void test_defaults_parse(void **state)
{
	struct ccb_opts o;

	(void)state;
	ccb_opts_defaults(&o);
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		struct ccb_opts one, path_o = o;
		char err[256] = "";

		assert_false(o.given[idx_of(d)]);
		if (!d->def)
			continue;
		/* A path's own rows get their defaults with its block. */
		ccb_opts_block_select(&path_o, d->cmds & CCB_CMD_PATHS);
		const struct ccb_opts *ref = (d->cmds & CCB_CMD_PATHS) ? &path_o : &o;
		memset(&one, 0, sizeof(one));
		if (ccb_opt_set(&one, d, d->def, err, sizeof(err)) != 0)
			fail_msg("default of --%s '%s' does not parse: %s", d->name, d->def, err);
		switch (d->type) {
		case CCB_OPT_UINT:
		case CCB_OPT_BYTES:
		case CCB_OPT_DURATION:
			assert_true(*(uint64_t *)((char *)&one + d->offset) ==
			            *(const uint64_t *)((const char *)ref + d->offset));
			break;
		case CCB_OPT_STR:
		case CCB_OPT_NAME:
		case CCB_OPT_CHOICE:
			assert_string_equal(*(const char *const *)((const char *)ref + d->offset),
			                    d->def);
			break;
		case CCB_OPT_FORMAT:
			assert_int_equal(*(enum ccb_format *)((char *)&one + d->offset),
			                 *(const enum ccb_format *)((const char *)ref + d->offset));
			break;
		default:
			break;
		}
	}
	/* The values documented in --help. */
	assert_string_equal(o.cluster, "ceph");
	assert_string_equal(o.rados_namespace, "ccbench");
	assert_null(o.conf);
	assert_null(o.pool);
	assert_null(o.run_name);
	assert_int_equal(o.queue_depth, 16);
	assert_int_equal(o.clients, 1);
	assert_true(o.op_size_bytes == 4 * MIB);
	assert_true(o.object_size_bytes == 0);
	assert_true(o.duration_usec == 10000000ull);
	assert_true(o.connect_timeout_usec == 30000000ull);
	assert_true(o.op_timeout_usec == 60000000ull);
	assert_true(o.total_bytes == 0);
	assert_int_equal(o.format, CCB_FMT_TEXT);
	assert_int_equal(o.n_sets, 0);
	assert_false(o.quiet);
	assert_false(CCB_RADOS_OPTS(&o)->no_cleanup);
}

static void test_given(void **state)
{
	struct ccb_opts o;

	(void)state;
	ccb_opts_defaults(&o);
	assert_false(ccb_opt_given(&o, "queue-depth"));
	assert_false(ccb_opt_given(&o, "no-such-option"));
	set_ok(&o, "queue-depth", "16"); /* same as the default, still given */
	assert_true(ccb_opt_given(&o, "queue-depth"));
	assert_false(ccb_opt_given(&o, "clients"));
	set_ok(&o, "quiet", NULL);
	assert_true(o.quiet);
	assert_true(ccb_opt_given(&o, "quiet"));
}

static void test_queue_depth_range(void **state)
{
	struct ccb_opts o;

	(void)state;
	set_bad("queue-depth", "0");
	set_bad("queue-depth", "1025");
	ccb_opts_defaults(&o);
	set_ok(&o, "queue-depth", "1");
	assert_int_equal(o.queue_depth, 1);
	set_ok(&o, "queue-depth", "1024");
	assert_int_equal(o.queue_depth, 1024);
	/* Plain integers: no suffixes, no signs. */
	set_bad("queue-depth", "1K");
	set_bad("queue-depth", "-1");
	set_bad("queue-depth", "");
	set_bad("queue-depth", "99999999999999999999999");
}

static void test_sizes(void **state)
{
	struct ccb_opts o;
	char err[256] = "";

	(void)state;
	set_bad("op-size", "0");
	set_bad("op-size", "4Mx");
	set_bad("op-size", "");
	set_bad("op-size", "-1");
	set_bad("op-size", "4 M");
	set_bad("op-size", "2G"); /* above the 1G cap */
	set_bad("object-size", "0");
	set_bad("total", "0");
	set_bad("total", "99999999999999999999999");

	ccb_opts_defaults(&o);
	set_ok(&o, "op-size", "64K");
	assert_true(o.op_size_bytes == 65536);
	set_ok(&o, "op-size", "1G");
	assert_true(o.op_size_bytes == 1ull << 30);
	set_ok(&o, "op-size", "1");
	assert_true(o.op_size_bytes == 1);
	set_ok(&o, "total", "10G");
	assert_true(o.total_bytes == 10ull << 30);

	/* The out-of-range message shows the range in the option's own units. */
	assert_int_equal(ccb_opt_set(&o, desc("op-size"), "2G", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "out of range"));
	assert_non_null(strstr(err, "1G"));
	/* A malformed size says what is expected. */
	assert_int_equal(ccb_opt_set(&o, desc("op-size"), "4Mx", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a size"));
}

static void test_durations(void **state)
{
	struct ccb_opts o;

	(void)state;
	set_bad("duration", "0");
	set_bad("duration", "999us");
	set_bad("duration", "10x");
	set_bad("duration", "2M"); /* minutes are "m"; "M" is not guessed */
	set_bad("op-timeout", "999ms");
	set_bad("op-timeout", "61m");
	set_bad("connect-timeout", "0");
	ccb_opts_defaults(&o);
	set_ok(&o, "duration", "1ms");
	assert_true(o.duration_usec == 1000);
	set_ok(&o, "duration", "2m");
	assert_true(o.duration_usec == 120000000ull);
	set_ok(&o, "op-timeout", "1s");
	assert_true(o.op_timeout_usec == 1000000ull);
	set_ok(&o, "op-timeout", "1h");
	assert_true(o.op_timeout_usec == 3600000000ull);
	/* --malloc-trim: off by default, 0 turns it off again, at most 60 s */
	assert_true(o.malloc_trim_usec == 0);
	set_ok(&o, "malloc-trim", "100ms");
	assert_true(o.malloc_trim_usec == 100000ull);
	set_ok(&o, "malloc-trim", "0");
	assert_true(o.malloc_trim_usec == 0);
	set_bad("malloc-trim", "61s");
	set_bad("malloc-trim", "-1s");
	set_bad("malloc-trim", "often");
}

/* Every numeric descriptor accepts exactly [min, max], written as the user would. */
static void test_ranges_from_table(void **state)
{
	(void)state;
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		const char *unit;
		char buf[64];
		struct ccb_opts o;

		if (d->type == CCB_OPT_UINT || d->type == CCB_OPT_BYTES)
			unit = "";
		else if (d->type == CCB_OPT_DURATION)
			unit = "us";
		else if (d->type == CCB_OPT_PCT) {
			/* Hundredths of a percent, written as percentages. */
			ccb_opts_defaults(&o);
			ccb_format_pct_centi(d->min, buf, sizeof(buf));
			set_ok(&o, d->name, buf);
			assert_true(*(uint64_t *)((char *)&o + d->offset) == d->min);
			ccb_format_pct_centi(d->max, buf, sizeof(buf));
			set_ok(&o, d->name, buf);
			assert_true(*(uint64_t *)((char *)&o + d->offset) == d->max);
			ccb_format_pct_centi(d->max + 1, buf, sizeof(buf));
			set_bad(d->name, buf);
			continue;
		} else if (d->type == CCB_OPT_STEADY) {
			/* min and max bound the WINDOW. */
			ccb_opts_defaults(&o);
			snprintf(buf, sizeof(buf), "bw:5%%/%lluus", (unsigned long long)d->min);
			set_ok(&o, d->name, buf);
			snprintf(buf, sizeof(buf), "bw:5%%/%lluus", (unsigned long long)d->max);
			set_ok(&o, d->name, buf);
			snprintf(buf, sizeof(buf), "bw:5%%/%lluus", (unsigned long long)d->min - 1);
			set_bad(d->name, buf);
			snprintf(buf, sizeof(buf), "bw:5%%/%lluus", (unsigned long long)d->max + 1);
			set_bad(d->name, buf);
			continue;
		} else
			continue;
		ccb_opts_defaults(&o);
		snprintf(buf, sizeof(buf), "%llu%s", (unsigned long long)d->min, unit);
		set_ok(&o, d->name, buf);
		assert_true(*(uint64_t *)((char *)&o + d->offset) == d->min);
		snprintf(buf, sizeof(buf), "%llu%s", (unsigned long long)d->max, unit);
		set_ok(&o, d->name, buf);
		assert_true(*(uint64_t *)((char *)&o + d->offset) == d->max);
		if (d->min > 0) {
			snprintf(buf, sizeof(buf), "%llu%s", (unsigned long long)d->min - 1, unit);
			set_bad(d->name, buf);
		}
		if (d->max < UINT64_MAX) {
			snprintf(buf, sizeof(buf), "%llu%s", (unsigned long long)d->max + 1, unit);
			set_bad(d->name, buf);
		}
	}
}

static void test_format_and_strings(void **state)
{
	struct ccb_opts o;
	char err[256];

	(void)state;
	ccb_opts_defaults(&o);
	set_ok(&o, "format", "json");
	assert_int_equal(o.format, CCB_FMT_JSON);
	set_ok(&o, "format", "csv");
	assert_int_equal(o.format, CCB_FMT_CSV);
	set_ok(&o, "format", "text");
	assert_int_equal(o.format, CCB_FMT_TEXT);
	set_bad("format", "xml");
	set_bad("format", "JSON");
	set_bad("format", "");

	/* Strings keep the caller's pointer; empty strings are refused. */
	static const char pool[] = "mypool";
	set_ok(&o, "pool", pool);
	assert_ptr_equal(o.pool, pool);
	assert_int_equal(ccb_opt_set(&o, desc("pool"), "", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--pool"));
	assert_ptr_equal(o.pool, pool);
	assert_int_equal(ccb_opt_set(&o, desc("keyring"), NULL, err, sizeof(err)), -EINVAL);
}

/*
 * A choice's valid values are data (.choices), not words parsed out of the
 * argument shown in --help: each parses, nothing else does (a part, the
 * display "seq|rand" itself), and the message lists them.
 */
static void test_choices_are_data(void **state)
{
	char err[256], words[256];
	struct ccb_opts o;

	(void)state;
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		bool choice = d->type == CCB_OPT_CHOICE || d->type == CCB_OPT_FORMAT;
		size_t n = 0;

		if (!choice) {
			if (d->choices)
				fail_msg("--%s has choices but is no choice", d->name);
			continue;
		}
		if (!d->choices || d->argname)
			fail_msg("--%s: a choice's values are .choices, its argname NULL", d->name);
		for (; d->choices[n]; n++) {
			ccb_opts_defaults(&o);
			set_ok(&o, d->name, d->choices[n]);
			if (d->type == CCB_OPT_FORMAT)
				assert_int_equal(o.format, n); /* enum ccb_format's order */
		}
		if (n < 2)
			fail_msg("--%s: a choice of %zu value(s)", d->name, n);
		/* The display joins them; it is not a value itself. */
		set_bad(d->name, ccb_opt_argname(d, words, sizeof(words)));
		assert_non_null(strchr(words, '|'));
	}
	set_bad("pattern", "se");
	set_bad("pattern", "seq ");
	set_bad("pattern", "rand|seq");
	set_bad("map-via", "fuse");
	assert_string_equal(ccb_opt_argname(desc("map-via"), words, sizeof(words)),
	                    "auto|kernel|fuse-loop");
	assert_string_equal(ccb_opt_argname(desc("queue-depth"), words, sizeof(words)), "N");
	assert_null(ccb_opt_argname(desc("quiet"), words, sizeof(words)));
	/* A short buffer truncates, never overruns. */
	assert_string_equal(ccb_opt_argname(desc("map-via"), words, 8), "auto|ke");

	ccb_opts_defaults(&o);
	assert_int_equal(ccb_opt_set(&o, desc("cache-policy"), "back", err, sizeof(err)), -EINVAL);
	assert_string_equal(
	    err, "--cache-policy 'back': expected one of writeback|writethrough|writearound");
	assert_int_equal(ccb_opt_set(&o, desc("format"), "xml", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--format 'xml': expected text, json or csv");
}

static void test_set_option(void **state)
{
	struct ccb_opts o;
	char err[256] = "";
	char vals[CCB_MAX_SETS + 1][32];

	(void)state;
	set_bad("set", "noequals");
	set_bad("set", "=value");
	set_bad("set", "");

	ccb_opts_defaults(&o);
	set_ok(&o, "set", "rados_osd_op_timeout=5");
	set_ok(&o, "set", "debug_ms=0");
	set_ok(&o, "set", "key="); /* an empty value is a value */
	assert_int_equal(o.n_sets, 3);
	assert_string_equal(o.sets[0], "rados_osd_op_timeout=5");
	assert_string_equal(o.sets[1], "debug_ms=0");
	assert_string_equal(o.sets[2], "key=");
	assert_true(ccb_opt_given(&o, "set"));

	ccb_opts_defaults(&o);
	for (int i = 0; i < CCB_MAX_SETS; i++) {
		snprintf(vals[i], sizeof(vals[i]), "k%d=v%d", i, i);
		set_ok(&o, "set", vals[i]);
	}
	assert_int_equal(o.n_sets, CCB_MAX_SETS);
	snprintf(vals[CCB_MAX_SETS], sizeof(vals[0]), "one=toomany");
	assert_int_equal(ccb_opt_set(&o, desc("set"), vals[CCB_MAX_SETS], err, sizeof(err)),
	                 -E2BIG);
	assert_non_null(strstr(err, "--set"));
	assert_int_equal(o.n_sets, CCB_MAX_SETS);
	for (int i = 0; i < CCB_MAX_SETS; i++)
		assert_ptr_equal(o.sets[i], vals[i]);
}

static void test_run_name(void **state)
{
	static const char *const good[] = {"r", "run_1", "A-Z_a-z-0-9", "0000"};
	static const char *const bad[] = {"",    "a.b", "a/b",  "a b", "run\n", "ru\xc3\xa4n",
	                                  "a:b", "a*",  "../x", "a=b"};
	struct ccb_opts o;
	char name[80];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		ccb_opts_defaults(&o);
		set_ok(&o, "run-name", good[i]);
		assert_string_equal(o.run_name, good[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		set_bad("run-name", bad[i]);

	memset(name, 'x', 64);
	name[64] = '\0';
	ccb_opts_defaults(&o);
	set_ok(&o, "run-name", name);
	name[64] = 'x';
	name[65] = '\0';
	set_bad("run-name", name);
}

static void test_validate_sizes(void **state)
{
	struct ccb_opts o;

	(void)state;
	rados_base(&o);
	validate_ok(&o, CMD_RADOS);

	rados_base(&o);
	set_ok(&o, "op-size", "8M");
	set_ok(&o, "object-size", "4M");
	validate_fails(&o, CMD_RADOS, "--op-size");

	rados_base(&o);
	set_ok(&o, "op-size", "4M");
	set_ok(&o, "object-size", "6M");
	validate_fails(&o, CMD_RADOS, "not a multiple");

	rados_base(&o);
	set_ok(&o, "op-size", "1M");
	set_ok(&o, "object-size", "16M");
	validate_ok(&o, CMD_RADOS);

	/* Without --object-size the object is one op. */
	rados_base(&o);
	set_ok(&o, "op-size", "3000");
	validate_ok(&o, CMD_RADOS);

	/* Tiny ops cannot carry the verification header unless verification is off. */
	rados_base(&o);
	set_ok(&o, "op-size", "63");
	validate_fails(&o, CMD_RADOS, "--no-verify");
	set_ok(&o, "no-verify", NULL);
	validate_ok(&o, CMD_RADOS);
	rados_base(&o);
	set_ok(&o, "op-size", "64");
	validate_ok(&o, CMD_RADOS);
}

static void test_validate_stop_rules(void **state)
{
	struct ccb_opts o;

	(void)state;
	rados_base(&o);
	/* Both: whichever comes first (bounded by bytes on a fast machine). */
	set_ok(&o, "duration", "5s");
	set_ok(&o, "total", "1G");
	validate_ok(&o, CMD_RADOS);

	rados_base(&o);
	set_ok(&o, "total", "1G");
	validate_ok(&o, CMD_RADOS);
	rados_base(&o);
	set_ok(&o, "duration", "5s");
	validate_ok(&o, CMD_RADOS);
}

/* --until-steady, --steady-ramp, --repeat-until: parsed and ranged by the
 * table, their pairs checked by ccb_opts_validate(). */
static void test_steady_options(void **state)
{
	static const char *const bad_specs[] = {
	    "",           "fast",          "bw:",     "bw:0%",         "bw:101%",  "bw:5%/1s",
	    "bw:5%/3.5s", "lat:5%/2500ms", "iops:x%", "bw:5%/5s junk", "slope:5%", "bw:nan"};
	struct ccb_opts o;
	json_t *j;

	(void)state;
	rados_base(&o);
	set_ok(&o, "until-steady", "iops_slope:2.5%/10s");
	assert_true(o.until_steady.on && o.until_steady.slope);
	assert_int_equal(o.until_steady.metric, CCB_STEADY_IOPS);
	assert_string_equal(o.until_steady.text, "iops_slope:2.5%/10s");
	validate_ok(&o, CMD_RADOS);
	for (size_t i = 0; i < ARRAY_SIZE(bad_specs); i++)
		set_bad("until-steady", bad_specs[i]);

	/* A ramp without a steady-state stop is a mistake, not a no-op. */
	rados_base(&o);
	set_ok(&o, "steady-ramp", "3s");
	validate_fails(&o, CMD_RADOS, "--steady-ramp: only with --until-steady");
	set_ok(&o, "until-steady", "5%");
	validate_ok(&o, CMD_RADOS);
	set_bad("steady-ramp", "2h");
	set_bad("steady-ramp", "-1s");

	/* A group's members must end together. */
	rados_base(&o);
	set_ok(&o, "until-steady", "5%");
	set_ok(&o, "group", "g");
	set_ok(&o, "members", "2");
	validate_fails(&o, CMD_RADOS | CCB_CMD_WORKLOAD, "not with --group");

	/* group report --wait: a bounded duration, 0 (no wait) to a day. */
	ccb_opts_defaults(&o);
	assert_true(o.group_wait_usec == 0);
	set_ok(&o, "wait", "30s");
	assert_true(o.group_wait_usec == 30000000ull);
	set_ok(&o, "wait", "0");
	set_bad("wait", "2d");
	set_bad("wait", "-1s");
	set_bad("wait", "soon");

	/* The result records the spec as normalised, the ramp in seconds. */
	rados_base(&o);
	set_ok(&o, "until-steady", "10");
	set_ok(&o, "steady-ramp", "1500ms");
	j = ccb_opts_to_json(&o, CMD_RADOS);
	assert_string_equal(json_string_value(json_object_get(j, "until-steady")), "bw:10%/5s");
	assert_true(json_real_value(json_object_get(j, "steady-ramp")) == 1.5);
	json_decref(j);
	rados_base(&o);
	j = ccb_opts_to_json(&o, CMD_RADOS);
	assert_true(json_is_null(json_object_get(j, "until-steady")));
	assert_true(json_is_null(json_object_get(j, "steady-ramp")));
	json_decref(j);

	/* --repeat-until: a percentage, 0 (off) to 100 %. */
	ccb_opts_defaults(&o);
	set_ok(&o, "repeat-until", "2.5%");
	assert_true(o.repeat_until_centipct == 250);
	set_ok(&o, "repeat-until", "0");
	set_bad("repeat-until", "100.5%");
	set_bad("repeat-until", "five");
	set_bad("repeat-until", "5%%");
	set_bad("repeat-until", "nan");
	set_bad("repeat-until", "-1");
	set_ok(&o, "repeat-until", "5");
	j = ccb_opts_to_json(&o, CCB_CMD_SWEEP);
	assert_true(json_real_value(json_object_get(j, "repeat-until")) == 5.0);
	json_decref(j);
}

/* --rate and its companions: every refusal before the cluster. */
static void test_open_loop_options(void **state)
{
	static const char *const bad_rates[] = {"0",
	                                        "0.0",
	                                        "-5",
	                                        "nan",
	                                        "inf",
	                                        "1e3",
	                                        "fast",
	                                        "40MiB",
	                                        "2.5K/s",
	                                        "0K/s",
	                                        " 500",
	                                        "500 ",
	                                        "5.",
	                                        ".5",
	                                        "1.2345",
	                                        "/s",
	                                        "100/m",
	                                        "10000001",
	                                        "99999999999999999999"};
	struct ccb_opts o;
	double ops = 0;
	uint64_t bytes = 0, count = 0, usec = 0;
	json_t *j;

	(void)state;
	/* What parses, and into which unit. */
	assert_int_equal(ccb_parse_rate("500", &ops, &bytes), 0);
	assert_true(ops == 500 && bytes == 0);
	assert_int_equal(ccb_parse_rate("2.5/s", &ops, &bytes), 0);
	assert_true(ops == 2.5 && bytes == 0);
	assert_int_equal(ccb_parse_rate("40MiB/s", &ops, &bytes), 0);
	assert_true(ops == 0 && bytes == 40 * MIB);
	assert_int_equal(ccb_parse_rate("4096/s", &ops, &bytes), 0); /* no unit: ops */
	assert_true(ops == 4096 && bytes == 0);
	assert_int_equal(ccb_parse_count_or_duration("64", &count, &usec), 0);
	assert_true(count == 64 && usec == 0);
	assert_int_equal(ccb_parse_count_or_duration("500ms", &count, &usec), 0);
	assert_true(count == 0 && usec == 500000);

	rados_base(&o);
	set_ok(&o, "rate", "500");
	validate_ok(&o, CMD_RADOS);
	set_ok(&o, "rate", "40MiB/s");
	set_ok(&o, "arrivals", "poisson");
	set_ok(&o, "rate-seed", "42");
	set_ok(&o, "max-backlog", "250ms");
	set_ok(&o, "max-in-flight", "4");
	assert_true(o.queue_depth == 4); /* the same setting as -t */
	validate_ok(&o, CMD_RADOS);
	for (size_t i = 0; i < ARRAY_SIZE(bad_rates); i++) {
		rados_base(&o);
		set_ok(&o, "rate", bad_rates[i]);
		validate_fails(&o, CMD_RADOS, "--rate");
	}
	/* The bound: a count above 0 or a duration with a unit. */
	static const char *const bad_backlogs[] = {"0", "0ms", "fast", "-1", "5 s", "1.5s"};
	for (size_t i = 0; i < ARRAY_SIZE(bad_backlogs); i++) {
		rados_base(&o);
		set_ok(&o, "rate", "100");
		set_ok(&o, "max-backlog", bad_backlogs[i]);
		validate_fails(&o, CMD_RADOS, "--max-backlog");
	}
	set_bad("arrivals", "burst");
	set_bad("arrivals", "");
	set_bad("max-in-flight", "0");
	set_bad("max-in-flight", "1025");
	set_bad("rate-seed", "-1");
	set_bad("rate-seed", "9223372036854775808");
	/* Each companion only with --rate. */
	static const char *const companions[][2] = {{"arrivals", "poisson"},
	                                            {"max-in-flight", "4"},
	                                            {"max-backlog", "64"},
	                                            {"rate-seed", "1"}};
	for (size_t i = 0; i < ARRAY_SIZE(companions); i++) {
		char want[64];

		rados_base(&o);
		set_ok(&o, companions[i][0], companions[i][1]);
		snprintf(want, sizeof(want), "--%s: only with --rate", companions[i][0]);
		validate_fails(&o, CMD_RADOS, want);
	}
	rados_base(&o);
	set_ok(&o, "rate", "100");
	set_ok(&o, "queue-depth", "2");
	set_ok(&o, "max-in-flight", "3");
	validate_fails(&o, CMD_RADOS, "the same setting, give one");
	rados_base(&o);
	set_ok(&o, "rate", "100");
	set_ok(&o, "rate-seed", "3");
	validate_fails(&o, CMD_RADOS, "--rate-seed: only with --arrivals poisson");
	/* fs takes --rate but has no slots to set. */
	rados_base(&o);
	set_ok(&o, "rate", "100");
	set_ok(&o, "max-in-flight", "2");
	validate_fails(&o, ccb_cli_command_find("fs write")->mask, "not an option of this command");
	/* The result's parameters say what was asked. */
	rados_base(&o);
	set_ok(&o, "rate", "40MiB/s");
	j = ccb_opts_to_json(&o, CMD_RADOS);
	assert_string_equal(json_string_value(json_object_get(j, "rate")), "40MiB/s");
	assert_string_equal(json_string_value(json_object_get(j, "arrivals")), "uniform");
	assert_string_equal(json_string_value(json_object_get(j, "max-backlog")), "1s");
	json_decref(j);
}

static void test_validate_identity(void **state)
{
	struct ccb_opts o;

	(void)state;
	rados_base(&o);
	set_ok(&o, "name", "admin");
	validate_fails(&o, CMD_RADOS, "--name 'admin'");

	rados_base(&o);
	set_ok(&o, "name", "client.admin");
	validate_ok(&o, CMD_RADOS);
	set_ok(&o, "id", "admin");
	validate_fails(&o, CMD_RADOS, "--id");

	rados_base(&o);
	set_ok(&o, "id", "admin");
	validate_ok(&o, CMD_RADOS);

	ccb_opts_defaults(&o);
	validate_fails(&o, CMD_RADOS, "--pool");
	validate_fails(&o, CMD_CLEANUP, "--pool");
}

static void test_validate_files(void **state)
{
	char path[] = "/tmp/ccb_test_options_XXXXXX";
	struct ccb_opts o;
	int fd;

	(void)state;
	rados_base(&o);
	set_ok(&o, "conf", "/nonexistent/ccbench/ceph.conf");
	validate_fails(&o, CMD_RADOS, "/nonexistent/ccbench/ceph.conf");
	validate_fails(&o, CMD_RADOS, "--conf");

	rados_base(&o);
	set_ok(&o, "keyring", "/nonexistent/ccbench/keyring");
	validate_fails(&o, CMD_RADOS, "--keyring");

	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	rados_base(&o);
	set_ok(&o, "conf", path);
	set_ok(&o, "keyring", path);
	validate_ok(&o, CMD_RADOS);
	unlink(path);
}

static void test_validate_command_options(void **state)
{
	struct ccb_opts o;

	(void)state;
	/* --all-runs belongs to cleanup. */
	rados_base(&o);
	set_ok(&o, "all-runs", NULL);
	validate_fails(&o, CMD_RADOS, "--all-runs");

	/* Workload and output options do not belong to cleanup. */
	ccb_opts_defaults(&o);
	set_ok(&o, "pool", "rbd");
	set_ok(&o, "all-runs", NULL);
	validate_ok(&o, CMD_CLEANUP);
	set_ok(&o, "queue-depth", "4");
	validate_fails(&o, CMD_CLEANUP, "--queue-depth");

	ccb_opts_defaults(&o);
	set_ok(&o, "pool", "rbd");
	set_ok(&o, "all-runs", NULL);
	set_ok(&o, "format", "json");
	validate_fails(&o, CMD_CLEANUP, "--format");

	/* --quiet is taken by both. */
	ccb_opts_defaults(&o);
	set_ok(&o, "pool", "rbd");
	set_ok(&o, "all-runs", NULL);
	set_ok(&o, "quiet", NULL);
	validate_ok(&o, CMD_CLEANUP);
	rados_base(&o);
	set_ok(&o, "quiet", NULL);
	validate_ok(&o, CMD_RADOS);
}

static void test_validate_cleanup(void **state)
{
	struct ccb_opts o;

	(void)state;
	ccb_opts_defaults(&o);
	set_ok(&o, "pool", "rbd");
	validate_fails(&o, CMD_CLEANUP, "--run-name");

	set_ok(&o, "run-name", "r1");
	validate_ok(&o, CMD_CLEANUP);
	set_ok(&o, "all-runs", NULL);
	validate_fails(&o, CMD_CLEANUP, "give one of them");

	ccb_opts_defaults(&o);
	set_ok(&o, "pool", "rbd");
	set_ok(&o, "all-runs", NULL);
	validate_ok(&o, CMD_CLEANUP);
}

static void test_to_json_defaults(void **state)
{
	struct ccb_opts o;
	json_t *j;
	size_t want = 0;

	(void)state;
	rados_base(&o);
	j = ccb_opts_to_json(&o, CMD_RADOS);
	assert_true(json_is_object(j));

	/* Exactly the options of the command, minus those it takes only for its output. */
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		uint64_t m = d->cmds & CMD_RADOS;
		bool in = m && m != CCB_CMD_OUTPUT;

		if (in != (json_object_get(j, d->name) != NULL))
			fail_msg("--%s: %s in parameters", d->name, in ? "missing" : "unexpected");
		want += in;
	}
	assert_int_equal(json_object_size(j), want);
	assert_null(json_object_get(j, "format"));
	assert_null(json_object_get(j, "output"));
	assert_null(json_object_get(j, "quiet"));
	assert_null(json_object_get(j, "all-runs"));

	/* Unset optional values are null, not 0. */
	assert_true(json_is_null(json_object_get(j, "total")));
	assert_true(json_is_null(json_object_get(j, "max-objects")));
	assert_true(json_is_null(json_object_get(j, "object-size")));
	assert_true(json_is_null(json_object_get(j, "conf")));
	assert_true(json_is_null(json_object_get(j, "run-name")));

	/* Numbers with defaults are numbers; durations are seconds as reals. */
	assert_true(json_is_integer(json_object_get(j, "queue-depth")));
	assert_int_equal(json_integer_value(json_object_get(j, "queue-depth")), 16);
	assert_true(json_integer_value(json_object_get(j, "op-size")) == 4 * MIB);
	assert_true(json_is_real(json_object_get(j, "duration")));
	assert_true(json_real_value(json_object_get(j, "duration")) == 10.0);
	assert_true(json_is_real(json_object_get(j, "op-timeout")));
	assert_true(json_real_value(json_object_get(j, "op-timeout")) == 60.0);

	assert_true(json_is_false(json_object_get(j, "no-cleanup")));
	assert_true(json_is_false(json_object_get(j, "reuse")));
	assert_string_equal(json_string_value(json_object_get(j, "pool")), "rbd");
	assert_string_equal(json_string_value(json_object_get(j, "namespace")), "ccbench");
	assert_true(json_is_array(json_object_get(j, "set")));
	assert_int_equal(json_array_size(json_object_get(j, "set")), 0);
	json_decref(j);
}

static void test_to_json_given(void **state)
{
	struct ccb_opts o;
	json_t *j, *sets;

	(void)state;
	rados_base(&o);
	set_ok(&o, "total", "1G");
	set_ok(&o, "max-objects", "7");
	set_ok(&o, "object-size", "8M");
	set_ok(&o, "op-timeout", "1500ms");
	set_ok(&o, "reuse", NULL);
	set_ok(&o, "run-name", "r1");
	set_ok(&o, "set", "a=b");
	set_ok(&o, "set", "c=d");
	j = ccb_opts_to_json(&o, CMD_RADOS);

	assert_true(json_is_integer(json_object_get(j, "total")));
	assert_true(json_integer_value(json_object_get(j, "total")) == 1ll << 30);
	assert_int_equal(json_integer_value(json_object_get(j, "max-objects")), 7);
	assert_true(json_integer_value(json_object_get(j, "object-size")) == 8 * MIB);
	assert_true(json_real_value(json_object_get(j, "op-timeout")) == 1.5);
	assert_true(json_is_true(json_object_get(j, "reuse")));
	assert_string_equal(json_string_value(json_object_get(j, "run-name")), "r1");
	sets = json_object_get(j, "set");
	assert_int_equal(json_array_size(sets), 2);
	assert_string_equal(json_string_value(json_array_get(sets, 0)), "a=b");
	assert_string_equal(json_string_value(json_array_get(sets, 1)), "c=d");
	json_decref(j);

	/* Cleanup records its own options and none of the workload's. */
	ccb_opts_defaults(&o);
	set_ok(&o, "pool", "rbd");
	set_ok(&o, "all-runs", NULL);
	j = ccb_opts_to_json(&o, CMD_CLEANUP);
	assert_true(json_is_true(json_object_get(j, "all-runs")));
	assert_null(json_object_get(j, "queue-depth"));
	assert_null(json_object_get(j, "duration"));
	assert_non_null(json_object_get(j, "pool"));
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_sane),
	    cmocka_unit_test(test_path_rows_assembled),
	    cmocka_unit_test(test_defaults_parse),
	    cmocka_unit_test(test_given),
	    cmocka_unit_test(test_queue_depth_range),
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_durations),
	    cmocka_unit_test(test_ranges_from_table),
	    cmocka_unit_test(test_format_and_strings),
	    cmocka_unit_test(test_choices_are_data),
	    cmocka_unit_test(test_set_option),
	    cmocka_unit_test(test_run_name),
	    cmocka_unit_test(test_validate_sizes),
	    cmocka_unit_test(test_validate_stop_rules),
	    cmocka_unit_test(test_validate_identity),
	    cmocka_unit_test(test_steady_options),
	    cmocka_unit_test(test_open_loop_options),
	    cmocka_unit_test(test_validate_files),
	    cmocka_unit_test(test_validate_command_options),
	    cmocka_unit_test(test_validate_cleanup),
	    cmocka_unit_test(test_to_json_defaults),
	    cmocka_unit_test(test_to_json_given),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
