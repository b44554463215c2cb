/*
 * The help a terminal shows, rendered from the command and option tables.
 * Nothing here knows an option or a command by name: a row added to either
 * table shows up in --help, CMD --help, the man page and the completion
 * without a change here (gendoc.c renders the documents).
 */
#include <ccbench/command.h>
#include <ccbench/help.h>

#include <string.h>

/* Where a command's summary starts in the overview, an option's help text
 * in CMD --help, and the line width. */
#define CMD_COL    24
#define HELP_COL   32
#define HELP_WIDTH 79

bool ccb_help_takes(const struct ccb_command *c, const struct ccb_opt_desc *d)
{
	return (d->cmds & c->mask) != 0;
}

bool ccb_help_is_workload(const struct ccb_command *c)
{
	return c->ops && (c->mask & CCB_CMD_WORKLOAD);
}

bool ccb_help_every_workload(const struct ccb_opt_desc *d)
{
	size_t n, workloads = 0;
	const struct ccb_command *cmds = ccb_cli_commands(&n);

	for (size_t i = 0; i < n; i++) {
		if (!ccb_help_is_workload(&cmds[i]))
			continue;
		workloads++;
		if (!ccb_help_takes(&cmds[i], d))
			return false;
	}
	return workloads > 0;
}

/* The value after @p name in a NULL-terminated name, value, ... list. */
static const char *lookup(const char *const *kv, const char *name)
{
	for (; kv && kv[0]; kv += 2)
		if (strcmp(kv[0], name) == 0)
			return kv[1];
	return NULL;
}

const char *ccb_help_default(const struct ccb_command *c, const struct ccb_opt_desc *d)
{
	const char *v = NULL;

	if (d->type == CCB_OPT_FLAG)
		return NULL;
	if (c)
		v = lookup(c->defaults, d->name);
	if (!v && c)
		v = lookup(c->default_notes, d->name);
	return v ? v : d->def;
}

void ccb_help_option_words(const struct ccb_opt_desc *d, char *buf, size_t len)
{
	char words[256];
	const char *arg = ccb_opt_argname(d, words, sizeof(words));
	const char *sp = arg ? " " : "";

	if (!arg)
		arg = "";

	if (d->short_name)
		snprintf(buf, len, "-%c, --%s%s%s", d->short_name, d->name, sp, arg);
	else
		snprintf(buf, len, "--%s%s%s", d->name, sp, arg);
}

void ccb_help_synopsis(const struct ccb_command *c, char *buf, size_t len)
{
	bool opts = false;

	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name && !opts; d++)
		opts = ccb_help_takes(c, d);
	snprintf(buf, len, "%s%s%s%s", c->name, c->args_help ? " " : "",
	         c->args_help ? c->args_help : "", opts ? " [options]" : "");
}

void ccb_help_wrap(FILE *out, const char *text, size_t col, size_t indent, size_t width)
{
	const char *p = text;

	while (*p) {
		size_t word = strcspn(p, " ");

		if (col > indent && col + 1 + word > width) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent || (col == indent && p != text)) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)word, p);
		col += word;
		p += word;
		p += strspn(p, " ");
	}
	fputc('\n', out);
}

/* A two-column row: @p left, then @p text wrapped from column @p at on. */
static void row(FILE *out, size_t at, const char *left, const char *text)
{
	int n = fprintf(out, "  %s", left);
	size_t col = n > 0 ? (size_t)n : 0;

	if (col + 1 > at) {
		fputc('\n', out);
		col = 0;
	}
	fprintf(out, "%*s", (int)(at - col), "");
	ccb_help_wrap(out, text, at, at, HELP_WIDTH);
}

static const char units_text[] = "Sizes take K, M, G, T (binary): 64K, 4M. Durations take us, "
                                 "ms, s, m, h: 500ms, 10s, 2m. CEPH_ARGS is read as the ceph "
                                 "CLIs read it. Results go to stdout, progress to stderr.";

void ccb_help_overview(FILE *out, const char *group)
{
	size_t n, gl = group ? strlen(group) : 0, col;
	const struct ccb_command *cmds = ccb_cli_commands(&n);
	char left[128];

	if (group) {
		fprintf(out, "usage: ccbench %s ", group);
		for (size_t i = 0, k = 0; i < n; i++)
			if (strncmp(cmds[i].name, group, gl) == 0 && cmds[i].name[gl] == ' ')
				fprintf(out, "%s%s", k++ ? "|" : "", cmds[i].name + gl + 1);
		fprintf(out, " [options]\n");
	} else {
		fprintf(out, "usage: ccbench COMMAND [ARGS] [options]\n");
	}
	fprintf(out, "       ccbench help COMMAND (or ccbench COMMAND --help): options, an "
	             "example\n\ncommands:\n");
	for (size_t i = 0; i < n; i++) {
		if (group && (strncmp(cmds[i].name, group, gl) != 0 || cmds[i].name[gl] != ' '))
			continue;
		snprintf(left, sizeof(left), "%s%s%s", cmds[i].name, cmds[i].args_help ? " " : "",
		         cmds[i].args_help ? cmds[i].args_help : "");
		row(out, CMD_COL, left, cmds[i].summary);
	}
	if (group)
		return;
	fprintf(out, "\noptions of every command:\n");
	row(out, CMD_COL, "-h, --help", "this overview; with a command, its options");
	row(out, CMD_COL, "    --version", "print ccbench's version");
	fprintf(out, "\noptions of every workload (rados, rbd, krbd, fs):\n ");
	col = 1;
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		if (!ccb_help_every_workload(d))
			continue;
		if (d->short_name)
			snprintf(left, sizeof(left), " -%c/--%s", d->short_name, d->name);
		else
			snprintf(left, sizeof(left), " --%s", d->name);
		if (col + strlen(left) > HELP_WIDTH) {
			fprintf(out, "\n ");
			col = 1;
		}
		col += (size_t)fprintf(out, "%s", left);
	}
	fprintf(out, "\n\n");
	ccb_help_wrap(out, units_text, 0, 0, HELP_WIDTH);
}

void ccb_help_command(FILE *out, const struct ccb_command *c)
{
	char left[128], text[1024];
	bool any = false;

	ccb_help_synopsis(c, left, sizeof(left));
	fprintf(out, "usage: ccbench %s\n\n%s\n\n", left, c->summary);
	ccb_help_wrap(out, c->description, 0, 0, HELP_WIDTH);
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		const char *def = ccb_help_default(c, d);

		if (!ccb_help_takes(c, d))
			continue;
		if (!any)
			fprintf(out, "\noptions:\n");
		any = true;
		ccb_help_option_words(d, left, sizeof(left));
		if (!d->short_name) {
			memmove(left + 4, left, strlen(left) + 1);
			memcpy(left, "    ", 4);
		}
		snprintf(text, sizeof(text), "%s%s%s%s", d->help, def ? " [default: " : "",
		         def ? def : "", def ? "]" : "");
		row(out, HELP_COL, left, text);
	}
	fprintf(out, "\nexample:\n  %s\n", c->example);
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		if (ccb_help_takes(c, d) &&
		    (d->type == CCB_OPT_BYTES || d->type == CCB_OPT_DURATION)) {
			fputc('\n', out);
			ccb_help_wrap(out, units_text, 0, 0, HELP_WIDTH);
			break;
		}
	}
}

void ccb_help_hint(FILE *out, const char *command)
{
	fprintf(out, "Try 'ccbench %s%s--help'.\n", command ? command : "", command ? " " : "");
}

/* The help command's row: parsing sets cli->help, and the front shows it. */
const struct ccb_command ccb_help_commands[] = {
    {
        .name = "help",
        .mode = CCB_MODE_SEQ,
        .n_args = 2,
        .args_help = "[COMMAND]",
        .args_kind = CCB_ARG_COMMAND,
        .summary = "show a command's synopsis, options and an example",
        .description = "Shows what ccbench COMMAND --help shows: the command's synopsis, the "
                       "options it takes with their defaults, and an example. Without "
                       "COMMAND, the list of commands.",
        .example = "ccbench help rbd read",
    },
    {0},
};
