/*
 * ccbench-gendoc: writes the documents generated from the command and
 * option tables (see gendoc.h). CMake runs it at build time; it is not
 * installed.
 *
 *   ccbench-gendoc man TEMPLATE VERSION DATE   ccbench(8) on stdout
 *   ccbench-gendoc bash                        the bash completion
 *   ccbench-gendoc markdown VERSION            docs/commands.md
 *
 * Exit status: 0, 1 (a template or write error), 2 (bad usage).
 */
#include <ccbench/commands.h>
#include <ccbench/gendoc.h>
#include <ccbench/path.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];

	if (!f) {
		fprintf(stderr, "ccbench-gendoc: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		char *more = realloc(buf, len + n + 1);
		if (!more) {
			free(buf);
			fclose(f);
			return NULL;
		}
		buf = more;
		memcpy(buf + len, chunk, n);
		len += n;
	}
	if (ferror(f)) {
		fprintf(stderr, "ccbench-gendoc: reading %s: %s\n", path, strerror(errno));
		free(buf);
		buf = NULL;
	} else if (!buf) {
		buf = calloc(1, 1);
	} else {
		buf[len] = '\0';
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	char err[256] = "";
	int r;

	r = ccb_commands_init();
	if (r < 0) {
		fprintf(stderr, "ccbench-gendoc: the option table: %s\n", strerror(-r));
		return 1;
	}
	if (argc == 5 && strcmp(argv[1], "man") == 0) {
		char *tmpl = read_file(argv[2]);

		if (!tmpl)
			return 1;
		r = ccb_gendoc_man(stdout, tmpl, argv[3], argv[4], err, sizeof(err));
		free(tmpl);
	} else if (argc == 2 && strcmp(argv[1], "bash") == 0) {
		r = ccb_gendoc_bash(stdout);
	} else if (argc == 3 && strcmp(argv[1], "markdown") == 0) {
		r = ccb_gendoc_markdown(stdout, argv[2]);
	} else {
		fprintf(stderr, "usage: ccbench-gendoc man TEMPLATE VERSION DATE | bash | "
		                "markdown VERSION\n");
		return 2;
	}
	if (r == 0 && fflush(stdout) != 0)
		r = -EIO;
	if (r < 0) {
		fprintf(stderr, "ccbench-gendoc: %s\n", err[0] ? err : strerror(-r));
		return 1;
	}
	return 0;
}
