/* Unit tests for src/cli/secret_opts.c: key material leaves a runner's argv
 * for its stdin, and --secrets-stdin reads it back as given options. */
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
#include "ccbench/path.h"
#include "ccbench/cli.h"
#include "ccbench/secret_opts.h"
#include "../../src/paths/krbd/path_krbd.h"
#include "../../src/paths/krbd/krbd_opts.h"

#define KEY "AQAA8VNlAAAAABAAAAECAwQFBgcICQoLDA0ODw=="

static json_t *strings(const char *const *s)
{
	json_t *a = json_array();

	while (*s)
		json_array_append_new(a, json_string(*s++));
	return a;
}

static char *dump(const json_t *j)
{
	char *t = json_dumps(j, JSON_COMPACT);

	assert_non_null(t);
	return t;
}

/* A pipe's read end holding @p text, its write end closed (or kept open in *@p w). */
static int pipe_with(const char *text, int *w)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], text, strlen(text)), (ssize_t)strlen(text));
	if (w)
		*w = p[1];
	else
		close(p[1]);
	return p[0];
}

static void test_split(void **state)
{
	static const char *const in[] = {"krbd",
	                                 "read",
	                                 "--set",
	                                 "key=" KEY,
	                                 "--set",
	                                 "rbd_cache=false",
	                                 "--map-options",
	                                 "secret=s1,noshare",
	                                 "--pool",
	                                 "p",
	                                 "--direct",
	                                 "-f",
	                                 "json",
	                                 "-q",
	                                 NULL};
	json_t *args = strings(in), *pub;
	char *doc, *t, err[256];

	(void)state;
	assert_int_equal(ccb_secret_opts_split(args, &pub, &doc, err, sizeof(err)), 0);
	t = dump(pub);
	assert_string_equal(t, "[\"krbd\",\"read\",\"--set\",\"rbd_cache=false\",\"--pool\",\"p\","
	                       "\"--direct\",\"-f\",\"json\",\"-q\",\"--secrets-stdin\"]");
	free(t);
	assert_string_equal(doc,
	                    "{\"set\":[\"key=" KEY "\"],\"map-options\":\"secret=s1,noshare\"}");
	free(doc);
	json_decref(pub);
	json_decref(args);
}

static void test_split_nothing_secret(void **state)
{
	static const char *const in[] = {"rados", "write", "--set", "rbd_cache=false", "-q", NULL};
	json_t *args = strings(in), *pub;
	char *doc, err[256];

	(void)state;
	assert_int_equal(ccb_secret_opts_split(args, &pub, &doc, err, sizeof(err)), 0);
	assert_null(doc);
	assert_true(json_equal(pub, args));
	json_decref(pub);
	json_decref(args);
}

static void test_split_refused(void **state)
{
	static const char *const loose[] = {"rados", "write", "key=" KEY, NULL};
	json_t *args = strings(loose), *pub, *big = json_array();
	char *doc, err[256], val[600];

	(void)state;
	assert_int_equal(ccb_secret_opts_split(args, &pub, &doc, err, sizeof(err)), -EINVAL);
	assert_null(pub);
	assert_null(doc);
	assert_null(strstr(err, KEY));
	json_decref(args);
	/* More than an empty pipe takes: refused, never a blocked write. */
	memset(val, 'x', sizeof(val) - 1);
	val[sizeof(val) - 1] = '\0';
	memcpy(val, "key=", 4);
	for (int i = 0; i < 8; i++) {
		json_array_append_new(big, json_string("--set"));
		json_array_append_new(big, json_string(val));
	}
	assert_int_equal(ccb_secret_opts_split(big, &pub, &doc, err, sizeof(err)), -E2BIG);
	assert_null(pub);
	assert_null(doc);
	json_decref(big);
}

/* What split writes, read reads: the same options, given. */
static void test_round_trip(void **state)
{
	static const char *const in[] = {"krbd",  "read",      "--set",         "key=" KEY,
	                                 "--set", "a_token=t", "--map-options", "secret=s1,noshare",
	                                 NULL};
	json_t *args = strings(in), *pub;
	struct ccb_opts o;
	char *doc, err[256];
	int fd;

	(void)state;
	assert_int_equal(ccb_secret_opts_split(args, &pub, &doc, err, sizeof(err)), 0);
	ccb_opts_defaults(&o);
	fd = pipe_with(doc, NULL);
	assert_int_equal(ccb_secret_opts_read(&o, fd, 5000000, err, sizeof(err)), 0);
	close(fd);
	assert_int_equal(o.n_sets, 2);
	assert_string_equal(o.sets[0], "key=" KEY);
	assert_string_equal(o.sets[1], "a_token=t");
	assert_string_equal(CCB_KRBD_OPTS(&o)->map_options, "secret=s1,noshare");
	assert_true(ccb_opt_given(&o, "set") && ccb_opt_given(&o, "map-options"));
	free(doc);
	json_decref(pub);
	json_decref(args);
}

/* --secrets-stdin on a command line: the parse reads stdin. */
static void test_cli_parse(void **state)
{
	char *argv[] = {"ccbench", "rados",           "write",           "-p", "x",
	                "-o",      "rbd_cache=false", "--secrets-stdin", NULL};
	struct ccb_cli cli;
	char err[256];
	int saved = dup(0), fd = pipe_with("{\"set\": [\"key=" KEY "\"]}", NULL);

	(void)state;
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	assert_int_equal(ccb_cli_parse(8, argv, &cli, err, sizeof(err)), 0);
	dup2(saved, 0);
	close(saved);
	assert_int_equal(cli.opts.n_sets, 2);
	assert_string_equal(cli.opts.sets[1], "key=" KEY);
	assert_int_equal(ccb_cli_validate(&cli, err, sizeof(err)), 0);
}

static void expect_refused(const char *text, int want, const char *says)
{
	struct ccb_opts o;
	char err[256];
	int fd = pipe_with(text, NULL);

	ccb_opts_defaults(&o);
	o.given[ccb_opt_find("map-options") - ccb_opt_table] = true;
	assert_int_equal(ccb_secret_opts_read(&o, fd, 5000000, err, sizeof(err)), want);
	close(fd);
	if (!strstr(err, says))
		fail_msg("'%s': '%s' does not say '%s'", text, err, says);
	if (strstr(err, KEY) || strstr(err, "AQAA"))
		fail_msg("'%s': the key in '%s'", text, err);
}

static void test_read_refused(void **state)
{
	struct ccb_opts o;
	char err[256];
	int w, fd;

	(void)state;
	expect_refused("", -EINVAL, "nothing on stdin");
	expect_refused("[\"key=" KEY "\"]", -EINVAL, "not one JSON object");
	expect_refused("{\"set\": \"key=" KEY, -EINVAL, "not one JSON object");
	expect_refused("{\"nope\": \"x\"}", -EINVAL, "no such option \"nope\"");
	expect_refused("{\"direct\": \"x\"}", -EINVAL, "--direct is a flag");
	expect_refused("{\"map-options\": \"secret=x\"}", -EINVAL, "command line too");
	expect_refused("{\"set\": 1}", -EINVAL, "expected a string or a list");
	/* A bad value: the message, which quotes it, is redacted (its
	 * "KEY=VALUE" too: redaction errs on the safe side). */
	expect_refused("{\"set\": \"=" KEY "\"}", -EINVAL, "--set '=<redacted>': expected KEY=");
	/* A stdin that never ends: bounded. */
	fd = pipe_with("{}", &w);
	ccb_opts_defaults(&o);
	assert_int_equal(ccb_secret_opts_read(&o, fd, 200000, err, sizeof(err)), -ETIMEDOUT);
	assert_non_null(strstr(err, "did not end"));
	close(fd);
	close(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_split),         cmocka_unit_test(test_split_nothing_secret),
	    cmocka_unit_test(test_split_refused), cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_cli_parse),     cmocka_unit_test(test_read_refused),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
