/*
 * Output paths and escaping (src/report/report_output.c, report_escape.c):
 * the fs.protected_symlinks rule ccbench applies to every hop of an output
 * path, that rule on real links in a sticky directory, and the escapes of
 * strings from other hosts in text and CSV.
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

#include <ccbench/report.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_may_follow),
	    cmocka_unit_test(test_output_sticky_links),
	    cmocka_unit_test(test_escape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
