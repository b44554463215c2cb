/*
 * The man page, the bash completion and docs/commands.md, rendered from
 * the command table and the option table. Like help.c, nothing here
 * names an option or a command: what a completion offers after an option
 * is read from the option's row (a choice's words, an argument called
 * FILE or PATH: local files, DIR: local directories, DEV: device files),
 * what it offers after a command from the command's row (args_kind).
 * The prose of the man page (DESCRIPTION, EXIT STATUS, FILES, ...) is a
 * template (tools/ccbench.8.in); only the parts that list commands and
 * options are generated.
 */
#include <ccbench/configs.h>
#include <ccbench/gendoc.h>
#include <ccbench/help.h>
#include <ccbench/units.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared: which commands take an option, and its defaults and range ---- */

/* The first word of @p c's name ("rbd" of "rbd read"), into @p buf. */
static void family(const struct ccb_command *c, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(c->name, " "), c->name);
}

/*
 * Whether cmds[i] stands first of its family (its first word, put in
 * @p fam) among cmds[0..i], so that each family is written once. With
 * @p multi only two-word commands count: the families a second word
 * completes ("rbd", "group"), not a one-word command such as "sweep".
 */
static bool family_first(const struct ccb_command *cmds, size_t i, bool multi, char *fam,
                         size_t len)
{
	char other[64];

	family(&cmds[i], fam, len);
	if (multi && !strchr(cmds[i].name, ' '))
		return false;
	for (size_t k = 0; k < i; k++) {
		if (multi && !strchr(cmds[k].name, ' '))
			continue;
		family(&cmds[k], other, sizeof(other));
		if (strcmp(fam, other) == 0)
			return false;
	}
	return true;
}

/*
 * The commands whose @p pick[i] is set, as a reader wants them: a family
 * whose every command is picked by its first word ("rbd"), the others by
 * their names ("krbd read, krbd randread").
 */
static void command_list(const bool *pick, char *buf, size_t len)
{
	size_t n, used = 0;
	const struct ccb_command *cmds = ccb_cli_commands(&n);
	char fam[64], other[64];

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		bool all = true;
		size_t k;

		/* Each family once, where its first command stands. */
		if (!family_first(cmds, i, false, fam, sizeof(fam)))
			continue;
		for (k = i; k < n; k++) {
			family(&cmds[k], other, sizeof(other));
			if (strcmp(fam, other) == 0 && !pick[k])
				all = false;
		}
		for (k = i; k < n && used < len; k++) {
			family(&cmds[k], other, sizeof(other));
			if (strcmp(fam, other) != 0 || !pick[k])
				continue;
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			                         all ? fam : cmds[k].name);
			if (all)
				break;
		}
	}
}

/* The commands that take @p d into @p buf; with @p def, only those whose
 * default of it reads @p def. */
static void commands_taking(const struct ccb_opt_desc *d, const char *def, char *buf, size_t len)
{
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);
	bool *pick = calloc(n, sizeof(*pick));

	buf[0] = '\0';
	if (!pick)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *v = ccb_help_default(&cmds[i], d);
		pick[i] = ccb_help_takes(&cmds[i], d) && (!def || (v && strcmp(v, def) == 0));
	}
	command_list(pick, buf, len);
	free(pick);
}

/*
 * How @p d's defaults read across the commands that take it: "30s"; or
 * "16 (rados), 1 (rbd, krbd)" when they differ; "" when there is none.
 */
static void defaults_text(const struct ccb_opt_desc *d, char *buf, size_t len)
{
	size_t n, used = 0, n_vals = 0;
	const struct ccb_command *cmds = ccb_cli_commands(&n);
	const char *vals[64];
	bool some_without = false;
	char who[512];

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *v = ccb_help_default(&cmds[i], d);
		size_t k;

		if (!ccb_help_takes(&cmds[i], d))
			continue;
		if (!v) {
			some_without = true;
			continue;
		}
		for (k = 0; k < n_vals && strcmp(vals[k], v) != 0; k++)
			;
		if (k == n_vals && n_vals < sizeof(vals) / sizeof(vals[0]))
			vals[n_vals++] = v;
	}
	if (n_vals == 1 && !some_without) {
		snprintf(buf, len, "%s", vals[0]);
		return;
	}
	for (size_t k = 0; k < n_vals && used < len; k++) {
		commands_taking(d, vals[k], who, sizeof(who));
		used += (size_t)snprintf(buf + used, len - used, "%s%s (%s)", k ? ", " : "",
		                         vals[k], who);
	}
}

/* "1 to 1024", "at least 4K"; "" where the type has no range to tell. */
static void range_text(const struct ccb_opt_desc *d, char *buf, size_t len)
{
	char lo[32], hi[32];

	buf[0] = '\0';
	if (d->type != CCB_OPT_UINT && d->type != CCB_OPT_BYTES && d->type != CCB_OPT_DURATION &&
	    d->type != CCB_OPT_PCT)
		return;
	ccb_opt_format_value(d, d->min, lo, sizeof(lo));
	ccb_opt_format_value(d, d->max, hi, sizeof(hi));
	if (d->max == UINT64_MAX && d->min == 0)
		return;
	if (d->max == UINT64_MAX)
		snprintf(buf, len, "at least %s", lo);
	else
		snprintf(buf, len, "%s to %s", lo, hi);
}

/* Options of a workload beyond those every workload takes: the ones its
 * entry lists (the common ones are listed once). */
static bool listed_for(const struct ccb_command *c, const struct ccb_opt_desc *d)
{
	return ccb_help_takes(c, d) && !(ccb_help_is_workload(c) && ccb_help_every_workload(d));
}

/* ---- man(7) ---- */

/*
 * @p s as roff text: backslashes escaped, a leading '.' or '\'' made
 * literal, and the hyphens of a word that starts with one (an option:
 * --queue-depth) made minus signs, so that a reader can copy them.
 */
static void roff(FILE *out, const char *s)
{
	bool option = false;
	const char *word = s;

	for (const char *p = s; *p; p++) {
		if (p == word) {
			size_t l = strcspn(p, " \n");

			/* A word holding an option ("--keep", "(-N)") is not
			 * hyphenated: it reads and copies as one word. */
			for (size_t i = 0; i < l; i++) {
				if (p[i] == '-' && (i == 0 || strchr("([/", p[i - 1]))) {
					fputs("\\%", out);
					break;
				}
			}
		}
		if (p == word || strchr("([/", p[-1]))
			option = *p == '-';
		if (*p == '\\')
			fputs("\\e", out);
		else if (*p == '-' && option)
			fputs("\\-", out);
		else
			fputc(*p, out);
		if (*p == ' ' || *p == '\n')
			word = p + 1;
	}
}

/* @p s with its first letter in capitals when its first word is a plain
 * lower-case word ("cluster name"; not "ceph.conf", "rbd_cache_size"). */
static void sentence(char *buf, size_t len, const char *s)
{
	size_t w = strspn(s, "abcdefghijklmnopqrstuvwxyz");

	snprintf(buf, len, "%s", s);
	if (w > 0 && (s[w] == ' ' || s[w] == '\0' || s[w] == ','))
		buf[0] = (char)(buf[0] - 'a' + 'A');
}

/* A line of roff text, made safe at its start. */
static void roff_line(FILE *out, const char *s)
{
	if (s[0] == '.' || s[0] == '\'')
		fputs("\\&", out);
	roff(out, s);
	fputc('\n', out);
}

/* "-c, --conf PATH" (@p full) or "--conf", in bold and italics. */
static void man_option_words(FILE *out, const struct ccb_opt_desc *d, bool full)
{
	char buf[128], words[256];
	const char *arg = ccb_opt_argname(d, words, sizeof(words));

	if (d->short_name && full)
		fprintf(out, "\\fB\\-%c\\fR, ", d->short_name);
	snprintf(buf, sizeof(buf), "--%s", d->name);
	fputs("\\fB", out);
	roff(out, buf);
	fputs("\\fR", out);
	if (arg && full) {
		fputs(" \\fI\\%", out);
		roff(out, arg);
		fputs("\\fR", out);
	}
}

/* A command before @p c whose options are @p c's, or NULL. */
static const struct ccb_command *same_options(const struct ccb_command *c)
{
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);

	for (const struct ccb_command *p = cmds; p < c; p++) {
		bool same = true;
		for (const struct ccb_opt_desc *d = ccb_opt_table; d->name && same; d++)
			same = ccb_help_takes(p, d) == ccb_help_takes(c, d);
		if (same)
			return p;
	}
	return NULL;
}

static void man_synopsis(FILE *out)
{
	fputs(".nf\n"
	      "\\fBccbench\\fR \\fIcommand\\fR [\\fIargs\\fR] [\\fIoptions\\fR]\n"
	      "\\fBccbench\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR\n"
	      "\\fBccbench help\\fR [\\fIcommand\\fR]\n"
	      "\\fBccbench \\-\\-version\\fR\n"
	      ".fi\n",
	      out);
}

static void man_commands(FILE *out)
{
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);

	for (size_t i = 0; i < n; i++) {
		const struct ccb_command *c = &cmds[i];
		bool any = false;

		fprintf(out, ".TP\n\\fB%s\\fR", c->name);
		if (c->args_help) {
			fputs(" \\fI", out);
			roff(out, c->args_help);
			fputs("\\fR", out);
		}
		for (const struct ccb_opt_desc *d = ccb_opt_table; d->name && !any; d++)
			any = ccb_help_takes(c, d);
		fputs(any ? " [\\fIoptions\\fR]\n" : "\n", out);
		roff_line(out, c->description);
		fputs(".IP\n", out);
		if (!any) {
			fputs("No options.\n", out);
			continue;
		}
		if (same_options(c)) {
			fprintf(out, "Options: as for \\fB%s\\fR.\n", same_options(c)->name);
			continue;
		}
		fputs(ccb_help_is_workload(c) ? "Options: those of every workload, and"
		                              : "Options:",
		      out);
		any = false;
		for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
			if (!listed_for(c, d))
				continue;
			fputs(any ? ",\n" : "\n", out);
			man_option_words(out, d, false);
			any = true;
		}
		fputs(any ? ".\n" : " no more.\n", out);
	}
}

static void man_options(FILE *out)
{
	char buf[1024];
	bool first = true;

	fputs("Options of every workload (rados, rbd, krbd and fs commands):\n", out);
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		if (!ccb_help_every_workload(d))
			continue;
		fputs(first ? "" : ",\n", out);
		man_option_words(out, d, false);
		first = false;
	}
	fputs(".\nThe commands that take each option are named below; an option given to a "
	      "command that does not take it is refused.\n",
	      out);
	fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShow the commands, or with a command, "
	      "its synopsis, options and an example, and exit.\n.TP\n\\fB\\-\\-version\\fR\n"
	      "Print ccbench's version and exit.\n",
	      out);
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		fputs(".TP\n", out);
		man_option_words(out, d, true);
		fputc('\n', out);
		sentence(buf, sizeof(buf), d->help);
		roff(out, buf);
		fputs(".\n", out);
		defaults_text(d, buf, sizeof(buf));
		if (buf[0]) {
			fputs(".br\nDefault: ", out);
			roff(out, buf);
			fputs(".\n", out);
		}
		range_text(d, buf, sizeof(buf));
		if (buf[0]) {
			fputs(".br\nRange: ", out);
			roff(out, buf);
			fputs(".\n", out);
		}
		commands_taking(d, NULL, buf, sizeof(buf));
		fputs(".br\nCommands: ", out);
		roff(out, buf);
		fputs(".\n", out);
	}
}

static void man_examples(FILE *out)
{
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);

	for (size_t i = 0; i < n; i++) {
		const char *s = cmds[i].summary;

		/* The summary as a sentence: "Sequential reads of ...:". */
		fprintf(out, ".PP\n%c", s[0] >= 'a' && s[0] <= 'z' ? s[0] - 'a' + 'A' : s[0]);
		roff(out, s + 1);
		fputs(":\n.PP\n.RS 4\n.nf\n", out);
		roff_line(out, cmds[i].example);
		fputs(".fi\n.RE\n", out);
	}
}

int ccb_gendoc_man(FILE *out, const char *tmpl, const char *version, const char *date, char *err,
                   size_t err_len)
{
	static const char *const sections[] = {"@SYNOPSIS@", "@COMMANDS@", "@OPTIONS@",
	                                       "@EXAMPLES@"};
	static void (*const render[])(FILE *) = {man_synopsis, man_commands, man_options,
	                                         man_examples};
	bool seen[4] = {false};
	const char *p = tmpl;

	while (*p) {
		size_t l = strcspn(p, "\n");
		bool done = false;

		for (int s = 0; s < 4 && !done; s++) {
			if (l == strlen(sections[s]) && strncmp(p, sections[s], l) == 0) {
				render[s](out);
				seen[s] = done = true;
			}
		}
		/* The inline markers; any other @WORD@ is a mistake in the template. */
		for (const char *q = p; !done && q < p + l;) {
			const char *at = memchr(q, '@', (size_t)(p + l - q));
			const char *end = at ? memchr(at + 1, '@', (size_t)(p + l - at - 1)) : NULL;
			size_t word;

			if (!at || !end) {
				fwrite(q, 1, (size_t)(p + l - q), out);
				break;
			}
			fwrite(q, 1, (size_t)(at - q), out);
			word = (size_t)(end - at + 1);
			if (word == 9 && strncmp(at, "@VERSION@", word) == 0) {
				fputs(version, out);
			} else if (word == 6 && strncmp(at, "@DATE@", word) == 0) {
				fputs(date, out);
			} else if (word == 13 && strncmp(at, "@CONFIGS_DIR@", word) == 0) {
				roff(out, CCB_CONFIGS_DIR);
			} else {
				snprintf(err, err_len, "man template: unknown marker '%.*s'",
				         (int)word, at);
				return -EINVAL;
			}
			q = end + 1;
		}
		if (!done)
			fputc('\n', out);
		p += l + (p[l] == '\n');
	}
	for (int s = 0; s < 4; s++) {
		if (!seen[s]) {
			snprintf(err, err_len, "man template: no line %s", sections[s]);
			return -EINVAL;
		}
	}
	return ferror(out) ? -EIO : 0;
}

/* ---- bash ---- */

/* A choice's values as compgen -W takes them: "seq rand". */
static void choice_words(const struct ccb_opt_desc *d, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; d->choices[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", d->choices[i]);
}

/* The option's spellings as case patterns: "-f|--format". */
static void bash_pattern(FILE *out, const struct ccb_opt_desc *d)
{
	if (d->short_name)
		fprintf(out, "-%c|", d->short_name);
	fprintf(out, "--%s", d->name);
}

/* Whether the bash completion offers local files (or directories) as the
 * value of @p d: by its argument's name in the table. */
static const char *value_completion(const struct ccb_opt_desc *d)
{
	if (!d->argname)
		return NULL;
	if (strcmp(d->argname, "FILE") == 0 || strcmp(d->argname, "PATH") == 0)
		return "_ccbench_files";
	if (strcmp(d->argname, "DIR") == 0)
		return "_ccbench_dirs";
	if (strcmp(d->argname, "DEV") == 0)
		return "_ccbench_devices";
	return NULL;
}

/* The completion's helpers: files, directories, devices, shipped configs. */
static void bash_helpers(FILE *out)
{
	fprintf(out,
	        "# bash completion for ccbench(8)                         -*- shell-script -*-\n"
	        "# Generated by ccbench-gendoc from the command and option tables\n"
	        "# (src/cli/cli.c, src/options/options_table.c): do not edit.\n\n"
	        "_ccbench_configs_dir=%s\n\n",
	        CCB_CONFIGS_DIR);
	fputs("# Each sets COMPREPLY from $cur (a local of _ccbench).\n"
	      "_ccbench_files()\n{\n"
	      "    local IFS=$'\\n'\n"
	      "    compopt -o filenames 2>/dev/null\n"
	      "    COMPREPLY+=($(compgen -f -- \"$cur\"))\n}\n"
	      "_ccbench_dirs()\n{\n"
	      "    local IFS=$'\\n'\n"
	      "    compopt -o filenames 2>/dev/null\n"
	      "    COMPREPLY+=($(compgen -d -- \"$cur\"))\n}\n"
	      "_ccbench_devices()\n{\n"
	      "    local IFS=$'\\n'\n"
	      "    compopt -o filenames 2>/dev/null\n"
	      "    COMPREPLY+=($(compgen -f -- \"${cur:-/dev/}\"))\n}\n"
	      "# The shipped sweep configs by name, then files.\n"
	      "_ccbench_configs()\n{\n"
	      "    local f names=()\n"
	      "    for f in \"$_ccbench_configs_dir\"/*.json; do\n"
	      "        [[ -f $f ]] || continue\n"
	      "        f=${f##*/}\n"
	      "        names+=(\"${f%.json}\")\n"
	      "    done\n"
	      "    COMPREPLY+=($(compgen -W \"${names[*]}\" -- \"$cur\"))\n"
	      "    _ccbench_files\n}\n\n",
	      out);
}

/* The start of _ccbench: the words before the cursor that are neither
 * options nor their values (options that take a value, from the table). */
static void bash_scan(FILE *out)
{
	fputs("_ccbench()\n{\n"
	      "    local cur=${COMP_WORDS[COMP_CWORD]} prev=\"\" w i cmd nargs\n"
	      "    local -a words=()\n"
	      "    COMPREPLY=()\n"
	      "    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	      "    # --opt=value: bash splits the words at '=' (COMP_WORDBREAKS).\n"
	      "    if [[ $cur == = ]]; then\n"
	      "        cur=\"\"\n"
	      "    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
	      "        prev=${COMP_WORDS[COMP_CWORD - 2]}\n"
	      "    fi\n"
	      "    # The words before the cursor that are neither options nor their values.\n"
	      "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "        w=${COMP_WORDS[i]}\n"
	      "        case $w in\n"
	      "        =) ((i++)) ;;\n"
	      "        -*)\n"
	      "            case $w in\n"
	      "            ",
	      out);
	{
		bool first = true;
		for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
			if (d->type == CCB_OPT_FLAG)
				continue;
			fputs(first ? "" : "|", out);
			bash_pattern(out, d);
			first = false;
		}
	}
	fputs(")\n"
	      "                [[ ${COMP_WORDS[i + 1]-} == = ]] || ((i++)) ;;\n"
	      "            esac\n"
	      "            ;;\n"
	      "        *) words+=(\"$w\") ;;\n"
	      "        esac\n"
	      "    done\n\n",
	      out);
}

static void bash_values(FILE *out)
{
	char words[256];

	/* Values of the option before the cursor. */
	fputs("    case $prev in\n", out);
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		const char *fn = value_completion(d);

		if (d->type == CCB_OPT_FLAG)
			continue;
		fputs("    ", out);
		bash_pattern(out, d);
		if (d->choices) {
			choice_words(d, words, sizeof(words));
			fprintf(out,
			        ")\n        COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n"
			        "        return\n        ;;\n",
			        words);
		} else if (fn) {
			fprintf(out, ")\n        %s\n        return\n        ;;\n", fn);
		} else {
			/* A value only the user knows: offer nothing, not a file. */
			fputs(")\n        return\n        ;;\n", out);
		}
	}
	fputs("    esac\n\n", out);
}

static void bash_command(FILE *out, const struct ccb_command *cmds, size_t n)
{
	char fam[64];

	/* The command so far: one word, or two for a family. */
	fputs("    cmd=${words[0]-}\n"
	      "    case $cmd in\n    ",
	      out);
	{
		bool first = true;
		for (size_t i = 0; i < n; i++) {
			if (!family_first(cmds, i, true, fam, sizeof(fam)))
				continue;
			fprintf(out, "%s%s", first ? "" : "|", fam);
			first = false;
		}
	}
	fputs(")\n        ((${#words[@]} > 1)) && cmd=\"$cmd ${words[1]}\"\n"
	      "        nargs=$((${#words[@]} - 2))\n"
	      "        ;;\n"
	      "    *) nargs=$((${#words[@]} - 1)) ;;\n"
	      "    esac\n\n",
	      out);
}

static void bash_options(FILE *out, const struct ccb_command *cmds, size_t n)
{
	/* Options of the command. */
	fputs("    if [[ $cur == -* ]]; then\n"
	      "        case $cmd in\n",
	      out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "        \"%s\")\n            w=\"", cmds[i].name);
		for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
			if (ccb_help_takes(&cmds[i], d))
				fprintf(out, "--%s ", d->name);
		fputs("--help\"\n            ;;\n", out);
	}
	fputs("        *)\n            w=\"", out);
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
		fprintf(out, "--%s ", d->name);
	fputs("--help --version\"\n            ;;\n"
	      "        esac\n"
	      "        COMPREPLY=($(compgen -W \"$w\" -- \"$cur\"))\n"
	      "        return\n"
	      "    fi\n\n",
	      out);
}

static void bash_command_words(FILE *out, const struct ccb_command *cmds, size_t n)
{
	char fam[64], other[64];

	/* Command words: the first, a family's second (also after help). */
	fputs("    if [[ ${words[0]-} == help ]]; then\n"
	      "        words=(\"${words[@]:1}\")\n"
	      "        ((${#words[@]} < 2)) || return\n"
	      "        cmd=help\n"
	      "        nargs=-1\n"
	      "    fi\n"
	      "    case ${#words[@]}:${words[0]-} in\n"
	      "    0:)\n"
	      "        COMPREPLY=($(compgen -W \"",
	      out);
	for (size_t i = 0; i < n; i++)
		if (family_first(cmds, i, false, fam, sizeof(fam)))
			fprintf(out, "%s%s", i ? " " : "", fam);
	fputs("\" -- \"$cur\"))\n        return\n        ;;\n", out);
	for (size_t i = 0; i < n; i++) {
		if (!family_first(cmds, i, true, fam, sizeof(fam)))
			continue;
		fprintf(out, "    1:%s)\n        COMPREPLY=($(compgen -W \"", fam);
		for (size_t k = i, m = 0; k < n; k++) {
			family(&cmds[k], other, sizeof(other));
			if (strcmp(fam, other) == 0)
				fprintf(out, "%s%s", m++ ? " " : "",
				        cmds[k].name + strlen(fam) + 1);
		}
		fputs("\" -- \"$cur\"))\n        return\n        ;;\n", out);
	}
	fputs("    esac\n\n", out);
}

static void bash_positional(FILE *out, const struct ccb_command *cmds, size_t n)
{
	/* Positional arguments. */
	fputs("    case $cmd in\n", out);
	for (size_t i = 0; i < n; i++) {
		static const char *const fn[] = {
		    [CCB_ARG_FILE] = "_ccbench_files",
		    [CCB_ARG_CONFIG] = "_ccbench_configs",
		};
		if (cmds[i].args_kind != CCB_ARG_FILE && cmds[i].args_kind != CCB_ARG_CONFIG)
			continue;
		fprintf(out, "    \"%s\")\n        ((nargs < %d)) && %s\n        ;;\n",
		        cmds[i].name, cmds[i].n_args, fn[cmds[i].args_kind]);
	}
}

int ccb_gendoc_bash(FILE *out)
{
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);

	bash_helpers(out);
	bash_scan(out);
	bash_values(out);
	bash_command(out, cmds, n);
	bash_options(out, cmds, n);
	bash_command_words(out, cmds, n);
	bash_positional(out, cmds, n);
	fputs("    esac\n"
	      "    return 0\n"
	      "}\n"
	      "complete -F _ccbench ccbench\n",
	      out);
	return ferror(out) ? -EIO : 0;
}

/* ---- markdown ---- */

/* @p s as markdown text (a table cell when @p cell): what would start
 * emphasis, a tag or a new cell is escaped. */
static void md(FILE *out, const char *s, bool cell)
{
	for (; *s; s++) {
		if (*s == '*' || *s == '<' || *s == '\\' || (*s == '|' && cell))
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* `-c, --conf PATH` in a table cell. */
static void md_option_words(FILE *out, const struct ccb_opt_desc *d)
{
	char buf[256];

	ccb_help_option_words(d, buf, sizeof(buf));
	fputc('`', out);
	for (const char *p = buf; *p; p++) {
		if (*p == '|')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputc('`', out);
}

/* The heading anchor GitHub gives "rbd read": "rbd-read". */
static void md_anchor(FILE *out, const char *name)
{
	for (; *name; name++)
		fputc(*name == ' ' ? '-' : *name, out);
}

int ccb_gendoc_markdown(FILE *out, const char *version)
{
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);
	char buf[1024];
	bool first = true;

	fprintf(
	    out,
	    "# Commands and options\n\n"
	    "<!-- Generated by ccbench-gendoc from the command table (src/cli/cli.c) and the "
	    "option "
	    "table (src/options/options.c); do not edit. After changing either: cmake --build "
	    "build "
	    "--target commands-md -->\n\n"
	    "ccbench %s. The same words on a terminal: `ccbench --help`, `ccbench help COMMAND` "
	    "(or `ccbench COMMAND --help`); and in `man ccbench`.\n\n"
	    "Usage: `ccbench COMMAND [ARGS] [options]`. Options may come before or after the "
	    "command words. Sizes take K, M, G, T (binary): `64K`, `4M`; durations take us, "
	    "ms, s, m, h: `500ms`, `10s`, `2m`.\n\n"
	    "| command | what it does |\n|---|---|\n",
	    version);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "| [`%s", cmds[i].name);
		if (cmds[i].args_help)
			fprintf(out, " %s", cmds[i].args_help);
		fputs("`](#", out);
		md_anchor(out, cmds[i].name);
		fputs(") | ", out);
		md(out, cmds[i].summary, true);
		fputs(" |\n", out);
	}
	for (size_t i = 0; i < n; i++) {
		const struct ccb_command *c = &cmds[i];
		bool any = false;

		ccb_help_synopsis(c, buf, sizeof(buf));
		fprintf(out, "\n## %s\n\n`ccbench %s`\n\n", c->name, buf);
		md(out, c->description, false);
		fputs("\n\n", out);
		if (same_options(c)) {
			fprintf(out, "Options: as for [`%s`](#", same_options(c)->name);
			md_anchor(out, same_options(c)->name);
			fprintf(out, ").\n\nExample:\n\n```sh\n%s\n```\n", c->example);
			continue;
		}
		for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
			if (!listed_for(c, d))
				continue;
			if (!any)
				fputs(ccb_help_is_workload(c)
				          ? "Options: those of every workload (see "
				            "[Options](#options)), "
				            "and "
				          : "Options: ",
				      out);
			else
				fputs(", ", out);
			if (d->short_name)
				fprintf(out, "`-%c`/", d->short_name);
			fprintf(out, "`--%s`", d->name);
			any = true;
		}
		if (!any)
			fputs(ccb_help_is_workload(c)
			          ? "Options: those of every workload (see [Options](#options))"
			          : "No options",
			      out);
		fprintf(out, ".\n\nExample:\n\n```sh\n%s\n```\n", c->example);
	}
	fputs("\n## Options\n\nOptions of every workload (rados, rbd, krbd and fs commands): ",
	      out);
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		if (!ccb_help_every_workload(d))
			continue;
		fprintf(out, "%s`--%s`", first ? "" : ", ", d->name);
		first = false;
	}
	fputs(". `-h, --help` and `--version` are options of every command.\n\n"
	      "| option | meaning | default | range | commands |\n|---|---|---|---|---|\n",
	      out);
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		fputs("| ", out);
		md_option_words(out, d);
		fputs(" | ", out);
		sentence(buf, sizeof(buf), d->help);
		md(out, buf, true);
		fputs(" | ", out);
		defaults_text(d, buf, sizeof(buf));
		md(out, buf, true);
		fputs(" | ", out);
		range_text(d, buf, sizeof(buf));
		md(out, buf, true);
		fputs(" | ", out);
		commands_taking(d, NULL, buf, sizeof(buf));
		md(out, buf, true);
		fputs(" |\n", out);
	}
	return ferror(out) ? -EIO : 0;
}
