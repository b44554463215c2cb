/* Unit tests for src/cli/help.c: the overview, CMD --help, the hint, wrapping. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/help.h"

/* What @p fn writes, as a string (free it). */
#define CAPTURE(buf, call)                                                                         \
	do {                                                                                       \
		size_t len_ = 0;                                                                   \
		FILE *out = open_memstream(&(buf), &len_);                                         \
		assert_non_null(out);                                                              \
		call;                                                                              \
		assert_int_equal(fclose(out), 0);                                                  \
	} while (0)

/* "--NAME" stands in @p text as a whole option word: after a space or a
 * comma, before a space, a newline, a comma or a ']' (so --size is not
 * found in --cache-size, nor --pool in --pool-x). */
static bool has_option(const char *text, const char *name)
{
	char want[96];
	size_t l;

	snprintf(want, sizeof(want), "--%s", name);
	l = strlen(want);
	for (const char *p = strstr(text, want); p; p = strstr(p + 1, want))
		if ((p == text || strchr(" ,\n(/", p[-1])) && strchr(" ,\n])", p[l]))
			return true;
	return false;
}

/* @p text has an option row for --NAME: a line that starts (after its
 * indent) with "-X, --NAME" or "--NAME", then a space or its end. */
static bool has_row(const char *text, const char *name)
{
	size_t l = strlen(name);

	for (const char *p = text; *p;) {
		const char *q = p + strspn(p, " ");

		/* A row starts near the margin; a wrapped description may start
		 * with "--name" too, but far right of it. */
		if (q - p > 8) {
			p += strcspn(p, "\n");
			p += *p == '\n';
			continue;
		}
		if (q[0] == '-' && q[1] != '-' && q[2] == ',' && q[3] == ' ')
			q += 4;
		if (strncmp(q, "--", 2) == 0 && strncmp(q + 2, name, l) == 0 &&
		    strchr(" \n", q[2 + l]))
			return true;
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	return false;
}

/* @p text with every run of spaces and newlines made one space (free it). */
static char *flat(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;

	assert_non_null(out);
	for (const char *p = text; *p; p++) {
		if (*p == ' ' || *p == '\n') {
			if (o == out || o[-1] != ' ')
				*o++ = ' ';
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

/* The part of @p text between @p from and @p to (both must be there). */
static char *section(const char *text, const char *from, const char *to)
{
	const char *a = strstr(text, from), *b;

	if (!a)
		fail_msg("no '%s' in:\n%s", from, text);
	b = strstr(a, to);
	if (!b)
		fail_msg("no '%s' after '%s' in:\n%s", to, from, text);
	return strndup(a, (size_t)(b - a));
}

/* No line wider than @p width (a line of one long word may be). */
static void assert_width(const char *text, size_t width)
{
	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n");

		if (l > width && memchr(p + 1, ' ', l - 1))
			fail_msg("line of %zu columns: %.*s", l, (int)l, p);
		p += l + (p[l] == '\n');
	}
}

static void test_overview(void **state)
{
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);
	char *buf = NULL, *every;

	(void)state;
	CAPTURE(buf, ccb_help_overview(out, NULL));
	/* Every command with its summary's first words. */
	for (size_t i = 0; i < n; i++) {
		char want[64];

		if (!strstr(buf, cmds[i].name))
			fail_msg("overview lacks command %s", cmds[i].name);
		snprintf(want, sizeof(want), "%.20s", cmds[i].summary);
		if (!strstr(buf, want))
			fail_msg("overview lacks the summary of %s", cmds[i].name);
	}
	/* The options every workload takes, named once; not the others. */
	every = section(buf, "options of every workload", "\n\n");
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		if (ccb_help_every_workload(d) != has_option(every, d->name))
			fail_msg("overview %s --%s", ccb_help_every_workload(d) ? "lacks" : "names",
			         d->name);
	}
	assert_true(has_option(every, "conf"));
	assert_false(has_option(every, "readahead"));
	free(every);
	assert_true(has_option(buf, "help"));
	assert_true(has_option(buf, "version"));
	assert_width(buf, 79);
	free(buf);

	/* `rbd --help`: only rbd's commands, and their second words. */
	CAPTURE(buf, ccb_help_overview(out, "rbd"));
	assert_non_null(strstr(buf, "usage: ccbench rbd read|randread|write|randwrite|rw"));
	assert_non_null(strstr(buf, "rbd randwrite"));
	assert_null(strstr(buf, "krbd"));
	assert_null(strstr(buf, "rados write"));
	free(buf);
}

/* CMD --help shows exactly the options the command takes, each with its
 * default for that command, and an example. */
static void test_command_help(void **state)
{
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		const struct ccb_command *c = &cmds[i];
		char *buf = NULL, *opts, want[128];

		CAPTURE(buf, ccb_help_command(out, c));
		snprintf(want, sizeof(want), "usage: ccbench %s", c->name);
		if (strncmp(buf, want, strlen(want)) != 0)
			fail_msg("%s: help starts '%.40s'", c->name, buf);
		snprintf(want, sizeof(want), "example:\n  %s\n", c->example);
		if (!strstr(buf, want))
			fail_msg("%s: no example", c->name);
		opts = strstr(buf, "\noptions:\n") ? section(buf, "\noptions:\n", "\nexample:")
		                                   : strdup("");
		for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
			if (ccb_help_takes(c, d) != has_row(opts, d->name))
				fail_msg("%s --help %s --%s", c->name,
				         ccb_help_takes(c, d) ? "lacks" : "shows", d->name);
		}
		assert_width(buf, 79);
		free(opts);
		free(buf);
	}
}

static void test_rbd_read_help(void **state)
{
	const struct ccb_command *c = ccb_cli_command_find("rbd read");
	char *buf = NULL, *text;

	(void)state;
	assert_non_null(c);
	CAPTURE(buf, ccb_help_command(out, c));
	assert_true(has_row(buf, "readahead"));
	assert_true(has_row(buf, "image"));
	/* Nothing of rados, krbd, fs, sweep or compare. */
	assert_false(has_row(buf, "op-size"));
	assert_false(has_row(buf, "read-ahead-kb"));
	assert_false(has_row(buf, "file-size"));
	assert_false(has_row(buf, "dry-run"));
	assert_false(has_row(buf, "tolerance"));
	assert_false(has_row(buf, "all-runs"));
	/* rbd's own defaults, not the table's. */
	text = flat(buf);
	assert_non_null(
	    strstr(text, "ops in flight per client (rados 16; rbd, krbd 1) [default: 1]"));
	assert_non_null(strstr(text, "[default: one pass over the image]"));
	assert_non_null(strstr(text, "bytes per I/O [default: 64K]"));
	free(text);
	free(buf);

	c = ccb_cli_command_find("rados write");
	CAPTURE(buf, ccb_help_command(out, c));
	text = flat(buf);
	assert_non_null(strstr(text, "[default: 16]"));
	assert_non_null(strstr(text, "run time (rbd, krbd: default one pass over the image; fs: "
	                             "default the whole file) [default: 10s]"));
	free(text);
	free(buf);

	/* A command without sizes or durations has no units paragraph. */
	c = ccb_cli_command_find("explain");
	CAPTURE(buf, ccb_help_command(out, c));
	assert_null(strstr(buf, "Sizes take"));
	assert_non_null(strstr(buf, "usage: ccbench explain RESULT.json [options]"));
	free(buf);
}

static void test_defaults(void **state)
{
	const struct ccb_opt_desc *qd = ccb_opt_find("queue-depth"), *keep = ccb_opt_find("keep");
	const struct ccb_opt_desc *dur = ccb_opt_find("duration");

	(void)state;
	assert_string_equal(ccb_help_default(NULL, qd), "16");
	assert_string_equal(ccb_help_default(ccb_cli_command_find("rados seq"), qd), "16");
	assert_string_equal(ccb_help_default(ccb_cli_command_find("krbd read"), qd), "1");
	assert_string_equal(ccb_help_default(ccb_cli_command_find("fs write"), dur),
	                    "the whole file");
	assert_string_equal(ccb_help_default(ccb_cli_command_find("rados rand"), dur), "10s");
	assert_null(ccb_help_default(ccb_cli_command_find("rbd read"), keep));
}

static void test_hint_and_words(void **state)
{
	char *buf = NULL, words[64];

	(void)state;
	CAPTURE(buf, ccb_help_hint(out, "rbd read"));
	assert_string_equal(buf, "Try 'ccbench rbd read --help'.\n");
	free(buf);
	CAPTURE(buf, ccb_help_hint(out, NULL));
	assert_string_equal(buf, "Try 'ccbench --help'.\n");
	free(buf);

	ccb_help_option_words(ccb_opt_find("conf"), words, sizeof(words));
	assert_string_equal(words, "-c, --conf PATH");
	ccb_help_option_words(ccb_opt_find("keep"), words, sizeof(words));
	assert_string_equal(words, "--keep");
	ccb_help_synopsis(ccb_cli_command_find("compare"), words, sizeof(words));
	assert_string_equal(words, "compare BASELINE.json CURRENT.json [options]");
	ccb_help_synopsis(ccb_cli_command_find("help"), words, sizeof(words));
	assert_string_equal(words, "help [COMMAND]");
}

static void test_wrap(void **state)
{
	char *buf = NULL;

	(void)state;
	CAPTURE(buf, ccb_help_wrap(out, "aa bb cc dd", 0, 2, 5));
	assert_string_equal(buf, "aa bb\n  cc\n  dd\n");
	free(buf);
	/* A word longer than the line stands alone, unbroken. */
	CAPTURE(buf, ccb_help_wrap(out, "a bbbbbbbbbb c", 3, 3, 8));
	assert_string_equal(buf, "a\n   bbbbbbbbbb\n   c\n");
	free(buf);
	CAPTURE(buf, ccb_help_wrap(out, "", 0, 0, 10));
	assert_string_equal(buf, "\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_overview),       cmocka_unit_test(test_command_help),
	    cmocka_unit_test(test_rbd_read_help),  cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_hint_and_words), cmocka_unit_test(test_wrap),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
