/*
 * Unit tests for src/cli/gendoc.c: the man page, the bash completion and
 * docs/commands.md name every command and option of the tables, the files
 * the build wrote (and the committed docs/commands.md) are what the tables
 * give today, and the completion completes as a user's shell would.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/gendoc.h"
#include "ccbench/help.h"

#define SRC   CCB_TEST_SOURCE_DIR
#define BUILD CCB_TEST_BUILD_DIR

/* The contents of @p path, or NULL (free it). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int c;

	if (!f)
		return NULL;
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	while ((c = fgetc(f)) != EOF)
		fputc(c, out);
	fclose(f);
	assert_int_equal(fclose(out), 0);
	return buf;
}

static char *render_man(const char *tmpl, const char *date, int *ret, char *err, size_t err_len)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	*ret = ccb_gendoc_man(out, tmpl, CCB_VERSION, date, err, err_len);
	assert_int_equal(fclose(out), 0);
	return buf;
}

static char *render(int (*fn)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(fn(out), 0);
	assert_int_equal(fclose(out), 0);
	return buf;
}

static int markdown(FILE *out)
{
	return ccb_gendoc_markdown(out, CCB_VERSION);
}

/* The text between @p from and @p to in @p s (free it). */
static char *between(const char *s, const char *from, const char *to)
{
	const char *a = strstr(s, from), *b = a ? strstr(a, to) : NULL;

	if (!a || !b)
		fail_msg("no '%s' ... '%s'", from, to);
	return strndup(a, (size_t)(b - a));
}

/* "--queue-depth" as the man page spells it: "\%\-\-queue\-depth". */
static void man_spelling(const char *name, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "\\fB\\%%\\-\\-");

	for (const char *p = name; *p && o + 3 < len; p++) {
		if (*p == '-')
			buf[o++] = '\\';
		buf[o++] = *p;
	}
	snprintf(buf + o, len - o, "\\fR");
}

static void test_man(void **state)
{
	char *tmpl = slurp(SRC "/tools/ccbench.8.in"), *built = slurp(BUILD "/ccbench.8");
	char *page, *cmds_sec, *opts_sec, err[256] = "", date[32] = "", want[256];
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);
	const char *th;
	int r;

	(void)state;
	assert_non_null(tmpl);
	if (!built)
		fail_msg("%s/ccbench.8 missing: the build generates it (target gendoc)", BUILD);
	/* Rendered again with the built page's date, it is the built page. */
	th = strstr(built, "\n.TH CCBENCH 8 \"");
	assert_non_null(th);
	sscanf(th, "\n.TH CCBENCH 8 \"%31[^\"]", date);
	page = render_man(tmpl, date, &r, err, sizeof(err));
	if (r != 0)
		fail_msg("ccb_gendoc_man: %d %s", r, err);
	if (strcmp(page, built) != 0)
		fail_msg("%s/ccbench.8 is stale: rebuild (make -C %s gendoc)", BUILD, BUILD);
	assert_null(strchr(page, '@'));

	cmds_sec = between(page, "\n.SH COMMANDS\n", "\n.SH OPTIONS\n");
	opts_sec = between(page, "\n.SH OPTIONS\n", "\n.SH EXAMPLES\n");
	for (size_t i = 0; i < n; i++) {
		snprintf(want, sizeof(want), ".TP\n\\fB%s\\fR", cmds[i].name);
		if (!strstr(cmds_sec, want))
			fail_msg("man page: COMMANDS lacks %s", cmds[i].name);
	}
	/* Each option's own entry (.TP, then its spelling), not a mention. */
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		char spelling[128];

		man_spelling(d->name, spelling, sizeof(spelling));
		if (d->short_name)
			snprintf(want, sizeof(want), ".TP\n\\fB\\-%c\\fR, %s", d->short_name,
			         spelling);
		else
			snprintf(want, sizeof(want), ".TP\n%s", spelling);
		if (!strstr(opts_sec, want))
			fail_msg("man page: OPTIONS lacks --%s (%s)", d->name, want);
	}
	/* Every section of ccbench(8), like rados(8)'s and rbd(8)'s. */
	for (const char *const *s =
	         (const char *const[]){"NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS",
	                               "EXAMPLES", "EXIT STATUS", "FILES", "ENVIRONMENT",
	                               "SEE ALSO", NULL};
	     *s; s++) {
		snprintf(want, sizeof(want), "\n.SH %s\n", *s);
		if (!strstr(page, want))
			fail_msg("man page lacks section %s", *s);
	}
	free(cmds_sec);
	free(opts_sec);
	free(page);
	free(built);
	free(tmpl);
}

static void test_man_template_errors(void **state)
{
	char err[256] = "", *page;
	int r;

	(void)state;
	page =
	    render_man(".TH X 8\n@SYNOPSIS@\n@COMMANDS@\n@EXAMPLES@\n", "d", &r, err, sizeof(err));
	assert_int_equal(r, -EINVAL);
	assert_non_null(strstr(err, "@OPTIONS@"));
	free(page);
	page = render_man("@SYNOPSIS@\n@COMMANDS@\n@OPTIONS@\n@EXAMPLES@\n.TH @VERSON@\n", "d", &r,
	                  err, sizeof(err));
	assert_int_equal(r, -EINVAL);
	assert_non_null(strstr(err, "unknown marker '@VERSON@'"));
	free(page);
	/* The inline markers. */
	page = render_man("@SYNOPSIS@\n@COMMANDS@\n@OPTIONS@\n@EXAMPLES@\nv@VERSION@ @DATE@\n",
	                  "D1", &r, err, sizeof(err));
	assert_int_equal(r, 0);
	assert_non_null(strstr(page, "\nv" CCB_VERSION " D1\n"));
	free(page);
}

static void test_markdown(void **state)
{
	char *md = render(markdown), *committed = slurp(SRC "/docs/commands.md"), *built;
	char want[256];
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);

	(void)state;
	if (!committed)
		fail_msg("%s/docs/commands.md missing: cmake --build %s --target commands-md", SRC,
		         BUILD);
	if (strcmp(md, committed) != 0)
		fail_msg("docs/commands.md is stale (the command or option table changed): "
		         "cmake --build %s --target commands-md, and commit it",
		         BUILD);
	built = slurp(BUILD "/commands.md");
	assert_non_null(built);
	assert_string_equal(built, md);
	for (size_t i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "\n## %s\n", cmds[i].name);
		if (!strstr(md, want))
			fail_msg("commands.md lacks a section for %s", cmds[i].name);
	}
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		char words[128];
		ccb_help_option_words(d, words, sizeof(words));
		/* The table cell escapes '|' (choices). */
		snprintf(want, sizeof(want), "\n| `%.*s", (int)strcspn(words, "|"), words);
		if (!strstr(md, want))
			fail_msg("commands.md lacks the row of --%s", d->name);
	}
	free(built);
	free(committed);
	free(md);
}

/* The completion script's list of options for @p command (free it). */
static char *bash_options(const char *script, const char *command)
{
	char from[128];

	char *block, *opts;

	snprintf(from, sizeof(from), "        \"%s\")\n            w=\"", command);
	block = between(script, from, "\"\n");
	opts = strdup(block + strlen(from));
	free(block);
	assert_non_null(opts);
	return opts;
}

static void test_bash_script(void **state)
{
	char *script = render(ccb_gendoc_bash), *built = slurp(BUILD "/completion/ccbench");
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);

	(void)state;
	if (!built)
		fail_msg("%s/completion/ccbench missing: the build generates it", BUILD);
	if (strcmp(script, built) != 0)
		fail_msg("%s/completion/ccbench is stale: rebuild", BUILD);
	assert_non_null(strstr(script, "\ncomplete -F _ccbench ccbench\n"));
	for (size_t i = 0; i < n; i++) {
		char *opts = bash_options(script, cmds[i].name), want[96], padded[4096];

		/* Words between spaces, so that --size is not found in --cache-size. */
		snprintf(padded, sizeof(padded), " %s ", opts);
		for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
			bool found;

			snprintf(want, sizeof(want), " --%s ", d->name);
			found = strstr(padded, want) != NULL;
			if (found != ccb_help_takes(&cmds[i], d))
				fail_msg("completion of %s %s --%s", cmds[i].name,
				         found ? "offers" : "lacks", d->name);
		}
		free(opts);
	}
	free(built);
	free(script);
}

/*
 * Complete @p line (the words typed so far; a trailing space starts a new
 * word) through the generated script in bash, as bash would at <TAB>:
 * COMP_WORDS split as readline splits them (at spaces and at '='), and
 * COMP_CWORD the last word. Returns COMPREPLY, one word per line.
 */
static char *complete(const char *line, const char *cwd)
{
	char cmd[4096], *out = NULL;
	size_t len = 0;
	FILE *p, *o;
	int c, st;

	snprintf(cmd, sizeof(cmd),
	         "cd '%s' && bash --norc --noprofile -c '"
	         ". \"$0\"; _ccbench_configs_dir=\"$1\"; "
	         "line=$2; line=${line//=/ = }; read -ra COMP_WORDS <<<\"$line\"; "
	         "[[ $2 == *\" \" || $2 == *= ]] && COMP_WORDS+=(\"\"); "
	         "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _ccbench; "
	         "printf \"%%s\\n\" \"${COMPREPLY[@]}\" | sort' "
	         "%s/completion/ccbench %s/configs '%s'",
	         cwd, BUILD, SRC, line);
	p = popen(cmd, "r");
	assert_non_null(p);
	o = open_memstream(&out, &len);
	assert_non_null(o);
	while ((c = fgetc(p)) != EOF)
		fputc(c, o);
	st = pclose(p);
	assert_int_equal(fclose(o), 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("bash completing '%s' exited %d: %s", line, st, out);
	return out;
}

static void expect_completion(const char *line, const char *want)
{
	char *got = complete(line, "/");

	if (strcmp(got, want) != 0)
		fail_msg("completing '%s': got\n%s\nwant\n%s", line, got, want);
	free(got);
}

static void test_bash_completes(void **state)
{
	char dir[] = "/tmp/ccb-gendoc-XXXXXX", path[64], *got;
	FILE *f;

	(void)state;
	/* Command words, two for a family, also after help. */
	expect_completion("ccbench rb", "rbd\n");
	expect_completion("ccbench kr", "krbd\n");
	expect_completion("ccbench rbd r", "randread\nrandwrite\nread\nrw\n");
	expect_completion("ccbench -p x rados ", "rand\nseq\nwrite\n");
	expect_completion("ccbench help kr", "krbd\n");
	expect_completion("ccbench help krbd r", "randread\nread\nrestore\n");
	expect_completion("ccbench help rbd read ", "\n");
	/* Options of the command only. */
	expect_completion("ccbench rbd read --read",
	                  "--readahead\n--readahead-disable-after\n--readahead-trigger\n");
	expect_completion("ccbench krbd read --read", "--read-ahead-kb\n");
	expect_completion("ccbench rbd read --op-", "--op-timeout\n");
	expect_completion("ccbench compare a b --al", "--allow-distrust\n--allow-release-change\n");
	/* Choice values, also after '='; nothing for a value only the user knows. */
	expect_completion("ccbench rbd read --cache-policy write",
	                  "writearound\nwriteback\nwritethrough\n");
	expect_completion("ccbench rbd rw --pattern=", "rand\nseq\n");
	expect_completion("ccbench -f j", "json\n");
	expect_completion("ccbench rados write -p ", "\n");
	/* An option's value is not taken for a command word. */
	expect_completion("ccbench -p rbd r", "rados\nrbd\nreport\nrestore\n");
	expect_completion("ccbench --pool=rbd rbd w", "write\n");
	/* Shipped configs for sweep; nothing for a group's name. */
	expect_completion("ccbench sweep qu", "quick\n");
	expect_completion("ccbench group report ", "\n");

	/* Files where a file goes: a result, --output, a config. */
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/res1.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	got = complete("ccbench explain res", dir);
	assert_string_equal(got, "res1.json\n");
	free(got);
	got = complete("ccbench compare res1.json re", dir);
	assert_string_equal(got, "res1.json\n");
	free(got);
	got = complete("ccbench compare res1.json res1.json re", dir);
	assert_string_equal(got, "\n");
	free(got);
	got = complete("ccbench rados write --output r", dir);
	assert_string_equal(got, "res1.json\n");
	free(got);
	got = complete("ccbench sweep re", dir);
	assert_string_equal(got, "readahead-librbd-vs-krbd\nres1.json\n");
	free(got);
	remove(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_man),
	    cmocka_unit_test(test_man_template_errors),
	    cmocka_unit_test(test_markdown),
	    cmocka_unit_test(test_bash_script),
	    cmocka_unit_test(test_bash_completes),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
