/*
 * Output paths and escaping (src/report/report_output.c, report_escape.c):
 * the fs.protected_symlinks rule ccbench applies to every hop of an output
 * path, that rule on real links in a sticky directory, and the escapes of
 * strings from other hosts in text and CSV: the helpers, and every view
 * of a crafted saved document (`explain`, `compare`, the sweep's text and
 * CSV, a sweep without a row_key).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <ccbench/sweep_report.h>
#include <ccbench/commands.h>
#include "ccbench/path.h"
#include <ccbench/escape.h>
#include <ccbench/cli.h>
#include <ccbench/report.h>
#include <ccbench/sweep.h>
#include <ccbench/explain_cmd.h>
#include <ccbench/compare_cmd.h>

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, 65535, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int fake_render(const json_t *doc, FILE *f)
{
	(void)doc;
	fputs("rendered\n", f);
	return ferror(f) ? -EIO : 0;
}

/* The kernel's fs.protected_symlinks rule, case by case. */
static void test_may_follow(void **state)
{
	struct stat dir = {.st_mode = S_IFDIR | 01777, .st_uid = 0};
	struct stat link = {.st_mode = S_IFLNK | 0777, .st_uid = 65534};

	(void)state;
	/* Another user's link in a sticky world-writable directory: never. */
	assert_false(ccb_output_may_follow(&dir, &link, 0));
	/* The follower's own link, or the directory owner's: yes. */
	assert_true(ccb_output_may_follow(&dir, &link, 65534));
	dir.st_uid = 65534;
	assert_true(ccb_output_may_follow(&dir, &link, 0));
	dir.st_uid = 0;
	/* Not sticky, or not world-writable: the rule does not apply. */
	dir.st_mode = S_IFDIR | 0777;
	assert_true(ccb_output_may_follow(&dir, &link, 0));
	dir.st_mode = S_IFDIR | 01775;
	assert_true(ccb_output_may_follow(&dir, &link, 0));
	link.st_uid = 0;
	dir.st_mode = S_IFDIR | 01777;
	assert_true(ccb_output_may_follow(&dir, &link, 0));
}

/*
 * The walk on real links (as root: a link owned by another uid needs
 * lchown): another user's link in a sticky directory is refused at the
 * last component and at an inner one, its target untouched, a dangling
 * one creates nothing; root's own link there is followed.
 */
static void test_output_sticky_links(void **state)
{
	char dir[64];
	char sticky[200], victim[300], link[300], absent[300], inner[300], err[1024], *text;
	json_t *doc = json_object();
	struct stat st;
	FILE *f;

	(void)state;
	if (geteuid() != 0) {
		print_message("not root: the sticky-directory links are not tested\n");
		skip();
	}
	snprintf(dir, sizeof(dir), "/tmp/ccb_test_output_XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(sticky, sizeof(sticky), "%s/sticky", dir);
	assert_int_equal(mkdir(sticky, 0700), 0);
	assert_int_equal(chmod(sticky, 01777), 0);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	f = fopen(victim, "w");
	assert_non_null(f);
	fputs("secret\n", f);
	fclose(f);
	assert_int_equal(chmod(victim, 0600), 0);

	snprintf(link, sizeof(link), "%s/r.json", sticky);
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(lchown(link, 65534, 65534), 0);
	assert_int_equal(ccb_output_check(link, "--output", err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "protected_symlinks"));
	assert_int_equal(ccb_report_to_file(link, "--output", doc, fake_render), -EPERM);
	text = slurp(victim);
	assert_string_equal(text, "secret\n");
	free(text);

	/* Dangling: nothing is created where it points. */
	snprintf(absent, sizeof(absent), "%s/absent.json", dir);
	snprintf(inner, sizeof(inner), "%s/d.json", sticky);
	assert_int_equal(symlink(absent, inner), 0);
	assert_int_equal(lchown(inner, 65534, 65534), 0);
	assert_int_equal(ccb_report_to_file(inner, "--output", doc, fake_render), -EPERM);
	assert_int_equal(access(absent, F_OK), -1);
	assert_int_equal(unlink(inner), 0);

	/* An inner hop: STICKY/sub -> DIR, the path STICKY/sub/victim. */
	snprintf(inner, sizeof(inner), "%s/sub", sticky);
	assert_int_equal(symlink(dir, inner), 0);
	assert_int_equal(lchown(inner, 65534, 65534), 0);
	snprintf(inner, sizeof(inner), "%s/sub/victim", sticky);
	assert_int_equal(ccb_report_to_file(inner, "--output", doc, fake_render), -EPERM);
	text = slurp(victim);
	assert_string_equal(text, "secret\n");
	free(text);

	/* Root's own link in the same directory: followed, the link kept. */
	assert_int_equal(lchown(link, 0, 0), 0);
	assert_int_equal(ccb_output_check(link, "--output", err, sizeof(err)), 0);
	assert_int_equal(ccb_report_to_file(link, "--output", doc, fake_render), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(victim, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	text = slurp(victim);
	assert_string_equal(text, "rendered\n");
	free(text);
	snprintf(inner, sizeof(inner), "%s/sub", sticky);
	assert_int_equal(unlink(inner), 0);
	assert_int_equal(unlink(link), 0);
	assert_int_equal(rmdir(sticky), 0);
	assert_int_equal(unlink(victim), 0);
	assert_int_equal(rmdir(dir), 0);
	json_decref(doc);
}

/* Control characters escaped for a terminal; CSV cells kept from formulas. */
static void test_escape(void **state)
{
	char buf[64], *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_string_equal(ccb_text_esc("host\x1b]0;pwned\x07", buf, sizeof(buf)),
	                    "host\\x1b]0;pwned\\x07");
	assert_string_equal(ccb_text_esc("a\nb\x7f", buf, sizeof(buf)), "a\\x0ab\\x7f");
	/* C1 CSI as UTF-8 (U+009B), and a lone 0x9b byte. */
	assert_string_equal(ccb_text_esc("x\xc2\x9b"
	                                 "2J",
	                                 buf, sizeof(buf)),
	                    "x\\u009b2J");
	assert_string_equal(ccb_text_esc("x\x9by", buf, sizeof(buf)), "x\\x9by");
	/* Other UTF-8 stays as it is. */
	assert_string_equal(ccb_text_esc("\xc2\xb1 \xe2\x80\x94", buf, sizeof(buf)),
	                    "\xc2\xb1 \xe2\x80\x94");
	/* Truncated whole escapes only. */
	assert_string_equal(ccb_text_esc("ab\x1b", buf, 5), "ab");

	f = open_memstream(&text, &len);
	assert_non_null(f);
	ccb_csv_cell(f, "=HYPERLINK(\"x\")");
	fputc('|', f);
	ccb_csv_cell(f, "+1");
	fputc('|', f);
	ccb_csv_cell(f, "-2");
	fputc('|', f);
	ccb_csv_cell(f, "@SUM(A1)");
	fputc('|', f);
	ccb_csv_cell(f, "\tx");
	fputc('|', f);
	ccb_csv_cell(f, "a,b");
	fputc('|', f);
	ccb_csv_cell(f, "plain");
	fputc('|', f);
	ccb_csv_cell(f, "e\x1b[2J");
	fclose(f);
	assert_string_equal(text, "\"'=HYPERLINK(\"\"x\"\")\"|\"'+1\"|\"'-2\"|\"'@SUM(A1)\"|"
	                          "\"'\\x09x\"|\"a,b\"|plain|e\\x1b[2J");
	free(text);
}

/* What @p fn(@p cli) writes to stdout and stderr, and its status in *rc. */
static char *capture(int (*fn)(const struct ccb_cli *), const struct ccb_cli *cli, int *rc)
{
	FILE *t = tmpfile();
	char *buf = calloc(1, 65536);
	int out, err;
	size_t n;

	assert_non_null(t);
	assert_non_null(buf);
	fflush(stdout);
	fflush(stderr);
	out = dup(1);
	err = dup(2);
	assert_true(out >= 0 && err >= 0);
	assert_true(dup2(fileno(t), 1) >= 0 && dup2(fileno(t), 2) >= 0);
	*rc = fn(cli);
	fflush(stdout);
	fflush(stderr);
	assert_true(dup2(out, 1) >= 0 && dup2(err, 2) >= 0);
	close(out);
	close(err);
	rewind(t);
	n = fread(buf, 1, 65535, t);
	buf[n] = '\0';
	fclose(t);
	return buf;
}

/* `ccbench CMD FILE [FILE2]`'s output, its status in *rc. */
static char *run_cmd(int (*fn)(const struct ccb_cli *), const char *file, const char *file2,
                     bool same_answer, int *rc)
{
	struct ccb_cli cli;

	memset(&cli, 0, sizeof(cli));
	ccb_opts_defaults(&cli.opts);
	cli.args[0] = file;
	cli.args[1] = file2;
	cli.n_args = file2 ? 2 : 1;
	cli.opts.tolerance = "10%";
	cli.opts.same_answer = same_answer;
	return capture(fn, &cli, rc);
}

/* @p text holds no ESC nor BEL byte: nothing a terminal would act on. */
static void assert_inert(const char *text, const char *what)
{
	if (strchr(text, '\x1b') || strchr(text, '\x07'))
		fail_msg("%s: a raw control character passed:\n%s", what, text);
}

static char *render(int (*fn)(const json_t *, FILE *), const json_t *doc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	fn(doc, f);
	fclose(f);
	return text;
}

static int render_text(const json_t *doc, FILE *f)
{
	ccb_sweep_render_text(doc, f);
	return 0;
}

/* A saved sweep whose strings carry terminal sequences and formulas. */
static json_t *crafted_sweep(void)
{
	json_t *doc = json_loads(
	    "{\"kind\": \"sweep\", \"row_key\": \"ra\\u001b[31m\", \"status\": \"ok\\u001b[2J\","
	    " \"config\": {\"name\": \"n\\u001b]0;t\\u0007\"},"
	    " \"latency\": {\"probes\": [{\"paths\": [\"p\\u001b[1m\"], \"error\": "
	    "\"e\\u001b[2J\"}]},"
	    " \"points\": [{\"command\": \"rbd\\u001b]0;t\\u0007read\","
	    "  \"matrix\": {\"ra\\u001b[31m\": \"1\\u001b[2J\", \"=cmd\": "
	    "\"=HYPERLINK(\\\"x\\\")\","
	    "   \"n\": -1},"
	    "  \"aggregate\": {\"runs\": 1, \"runs_ok\": 1,"
	    "   \"bandwidth_mib_s\": {\"mean\": 1.0, \"stddev\": 0.0}},"
	    "  \"runs\": [{\"path\": \"librbd\", \"status\": \"ok\","
	    "   \"warnings\": [\"served from the page cache \\u001b[2J\"],"
	    "   \"explain\": [{\"kind\": \"=k\", \"severity\": \"warn\","
	    "    \"text\": \"w\\u001b[2J\"}]}]}]}",
	    0, NULL);

	assert_non_null(doc);
	return doc;
}

/* Save @p doc (or @p raw text) in DIR/NAME, the path in @p path. */
static void save(const char *dir, const char *name, const json_t *doc, const char *raw, char *path,
                 size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	if (doc)
		assert_int_equal(json_dumpf(doc, f, 0), 0);
	else
		fputs(raw, f);
	assert_int_equal(fclose(f), 0);
}

/*
 * A saved document can be crafted, or hold another host's record: each
 * of its strings that a text view prints is escaped, each CSV cell kept
 * from being a formula. explain (a sweep, a group report, a result),
 * compare (its point names, the distrust it refuses on), the sweep's text
 * and CSV, and load errors.
 */
static void test_saved_views_escaped(void **state)
{
	char dir[64], sweep[128], group[128], single[128], bad[128], *text;
	json_t *doc = crafted_sweep(), *g, *r;
	int rc;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ccb_test_output_XXXXXX");
	assert_non_null(mkdtemp(dir));
	save(dir, "sweep.json", doc, NULL, sweep, sizeof(sweep));

	text = run_cmd(ccb_explain_command, sweep, NULL, false, &rc);
	assert_int_equal(rc, 0);
	assert_inert(text, "explain SWEEP");
	assert_non_null(strstr(text, "rbd\\x1b]0;t\\x07read"));
	assert_non_null(strstr(text, "page cache \\x1b[2J"));
	free(text);

	text = render(render_text, doc);
	assert_inert(text, "sweep text");
	assert_non_null(strstr(text, "ra\\x1b[31m"));
	assert_non_null(strstr(text, "w\\x1b[2J"));
	assert_non_null(strstr(text, "e\\x1b[2J"));
	free(text);

	text = render(ccb_sweep_render_csv, doc);
	assert_inert(text, "sweep CSV");
	assert_non_null(strstr(text, "point,command,ra\\x1b[31m,\"'=cmd\",n,"));
	assert_non_null(
	    strstr(text, "1,rbd\\x1b]0;t\\x07read,1\\x1b[2J,\"'=HYPERLINK(\"\"x\"\")\",-1,"));
	assert_non_null(strstr(text, ",\"'=k:warn\"\n"));
	free(text);

	/* compare: the point's name, and the distrust it refuses on. */
	text = run_cmd(ccb_compare_command, sweep, sweep, false, &rc);
	assert_int_equal(rc, 2);
	assert_inert(text, "compare SWEEP");
	assert_non_null(strstr(text, "point rbd\\x1b]0;t\\x07read"));
	free(text);

	/* A group report: the member's name is its record's. */
	g = json_pack("{s:s, s:[{s:s, s:{s:s, s:f, s:[s]}}]}", "kind", "group_report", "members",
	              "member", "h\x1b]0;x\x07", "result", "command", "rados write",
	              "bandwidth_mib_s", 1.0, "warnings", "served from the page cache \x1b[2J");
	assert_non_null(g);
	save(dir, "group.json", g, NULL, group, sizeof(group));
	text = run_cmd(ccb_explain_command, group, NULL, false, &rc);
	assert_int_equal(rc, 0);
	assert_inert(text, "explain GROUP");
	assert_non_null(strstr(text, "member h\\x1b]0;x\\x07\n"));
	free(text);

	/* A single result. */
	r = json_deep_copy(
	    json_object_get(json_array_get(json_object_get(g, "members"), 0), "result"));
	json_object_set_new(r, "command", json_string("rados\x1b[2Jwrite"));
	save(dir, "single.json", r, NULL, single, sizeof(single));
	text = run_cmd(ccb_explain_command, single, NULL, false, &rc);
	assert_int_equal(rc, 0);
	assert_inert(text, "explain RESULT");
	assert_non_null(strstr(text, "DISTRUST: part of this read came from a cache"));
	free(text);

	/* What jansson quotes of a file that is not JSON. */
	save(dir, "bad.json", NULL, "\x1b[2J\x1b]0;t\x07", bad, sizeof(bad));
	text = run_cmd(ccb_explain_command, bad, NULL, false, &rc);
	assert_int_equal(rc, 2);
	assert_inert(text, "explain BAD");
	free(text);

	unlink(sweep);
	unlink(group);
	unlink(single);
	unlink(bad);
	assert_int_equal(rmdir(dir), 0);
	json_decref(doc);
	json_decref(g);
	json_decref(r);
}

/*
 * A saved sweep without a row_key reads as one with "" everywhere: its
 * views, its caveats (the row value "-", as the table shows it) and
 * compare --same-answer's knees; nothing dereferences NULL.
 */
static void test_sweep_without_row_key(void **state)
{
	char dir[64], path[128], *text;
	json_t *doc = json_loads(
	    "{\"kind\": \"sweep\", \"points\": [{\"command\": \"krbd read\","
	    "  \"matrix\": {\"path\": \"krbd\"},"
	    "  \"aggregate\": {\"runs\": 1, \"runs_ok\": 1,"
	    "   \"bandwidth_mib_s\": {\"mean\": 1.0, \"stddev\": 0.0}},"
	    "  \"runs\": [{\"path\": \"krbd\", \"status\": \"ok\", \"explain\": [{\"kind\":"
	    "   \"client-cpu\", \"severity\": \"warn\", \"text\": \"t\","
	    "   \"figures\": {\"emulated\": \"qemu-tcg\"}}]}]}],"
	    " \"knees\": [{\"series\": {\"path\": \"krbd\"}, \"value\": 1,"
	    "  \"bandwidth_mib_s\": 1.0, \"best_mib_s\": 1.0}]}",
	    0, NULL);
	json_t *cav, *c;
	size_t i;
	int rc;
	bool emulated = false;

	(void)state;
	assert_non_null(doc);
	cav = ccb_sweep_caveats(doc);
	json_array_foreach(cav, i, c)
	{
		const char *t = json_string_value(json_object_get(c, "text"));

		if (strcmp(json_string_value(json_object_get(c, "kind")), "emulated-limit") == 0) {
			emulated = true;
			assert_non_null(strstr(t, "path=krbd: at  - the client's emulated CPU"));
		}
	}
	assert_true(emulated);
	json_decref(cav);
	text = render(render_text, doc);
	assert_non_null(strstr(text, "path=krbd"));
	free(text);
	text = render(ccb_sweep_render_csv, doc);
	assert_non_null(strstr(text, "1,krbd read,krbd,1,1,"));
	free(text);
	text = render(ccb_sweep_render_svg, doc);
	free(text);

	snprintf(dir, sizeof(dir), "/tmp/ccb_test_output_XXXXXX");
	assert_non_null(mkdtemp(dir));
	save(dir, "sweep.json", doc, NULL, path, sizeof(path));
	text = run_cmd(ccb_compare_command, path, path, true, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(text, "knee (path=\"krbd\"): 1 in both"));
	free(text);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_may_follow),
	    cmocka_unit_test(test_output_sticky_links),
	    cmocka_unit_test(test_escape),
	    cmocka_unit_test(test_saved_views_escaped),
	    cmocka_unit_test(test_sweep_without_row_key),
	};
	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
