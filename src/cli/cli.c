/*
 * The command line. getopt_long's tables are generated from the option
 * table, so every option parses, validates and documents itself once.
 */
#include <ccbench/cli.h>
#include <ccbench/fault.h>
#include <ccbench/path.h>
#include <ccbench/registry.h>
#include <ccbench/secret_opts.h>

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Another row of the same field was given (--max-in-flight is -t's); rows
 * of two paths' blocks may share an offset, not a field. */
static bool same_field_given(const struct ccb_opts *o, const struct ccb_opt_desc *d)
{
	for (const struct ccb_opt_desc *e = ccb_opt_table; e->name; e++)
		if (e != d && e->offset == d->offset &&
		    (e->cmds & CCB_CMD_PATHS) == (d->cmds & CCB_CMD_PATHS) &&
		    o->given[e - ccb_opt_table])
			return true;
	return false;
}

/* The words of every command are data: the help, the man page, the
 * completion and docs/commands.md are rendered from the rows. A path's
 * rows come with its registry row (src/paths/registry.c); the others
 * with their wings, listed by the front (src/commands/commands.c). */
/* Room for every row: the paths' (from the registry) and the ones above. */
#define MAX_COMMANDS 64

static struct ccb_command commands[MAX_COMMANDS];
static size_t n_commands;
static pthread_once_t commands_once = PTHREAD_ONCE_INIT;
static int build_error; /* -E2BIG: past MAX_COMMANDS */

static void add_command(const struct ccb_command *cmd)
{
	if (n_commands == MAX_COMMANDS) {
		build_error = -E2BIG;
		return;
	}
	commands[n_commands++] = *cmd;
}

/* The front's rows and the run of every workload (ccb_cli_commands_init()). */
static const struct ccb_command *const *front_groups;
static size_t n_front_groups;
static ccb_command_run workload_run;

/* The table: every path's rows in the registry's order, then the front's. */
static void build_commands(void)
{
	const struct ccb_path_ops *ops;
	const struct ccb_command *rows;
	size_t n_paths = 1;

	/* A path's rows are its workloads, but for one that names a run of its
	 * own (cleanup): a workload runs through the path's table for its
	 * mode (fs meta: the cephfs path's metadata table). */
	for (size_t i = 0; i < n_paths; i++)
		for (ops = ccb_path_at(i, &n_paths), rows = ops ? ops->commands : NULL;
		     rows && rows->name; rows++) {
			add_command(rows);
			if (commands[n_commands - 1].run)
				continue;
			commands[n_commands - 1].ops = ccb_path_find(ops->name, rows->mode);
			commands[n_commands - 1].run = workload_run;
			/* A workload takes the shared rows its path's capabilities
			 * name, and the path's own rows. */
			commands[n_commands - 1].mask |=
			    ops->caps | ccb_opt_group_bit(ops->options);
		}
	for (size_t g = 0; g < n_front_groups; g++)
		for (rows = front_groups[g]; rows->name; rows++)
			add_command(rows);
}

static size_t command_count(void)
{
	pthread_once(&commands_once, build_commands);
	return n_commands;
}

#define N_COMMANDS command_count()

int ccb_cli_commands_init(const struct ccb_command *const *groups, size_t n_groups,
                          ccb_command_run workload)
{
	if (!front_groups) {
		front_groups = groups;
		n_front_groups = n_groups;
		workload_run = workload;
	}
	(void)command_count();
	return build_error;
}

const struct ccb_command *ccb_cli_commands(size_t *n)
{
	*n = N_COMMANDS;
	return commands;
}

const struct ccb_command *ccb_cli_command_find(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

enum { OPT_HELP = 1000, OPT_VERSION };

/* Defaults that differ by command (rbd reads at depth 1, like dd or a booting
 * VM); they apply where the user gave nothing and do not count as given. */
static int apply_command_defaults(struct ccb_cli *cli, const struct ccb_command *cmd, char *err,
                                  size_t err_len)
{
	for (const char *const *kv = cmd->defaults; kv && kv[0]; kv += 2) {
		const struct ccb_opt_desc *d = ccb_opt_find(kv[0]);

		if (cli->opts.given[d - ccb_opt_table] || same_field_given(&cli->opts, d))
			continue;
		if (ccb_opt_set(&cli->opts, d, kv[1], err, err_len) < 0)
			return -EINVAL;
		cli->opts.given[d - ccb_opt_table] = false;
	}
	return 0;
}

/*
 * A name of a shared value that the command shows under another name
 * (-b on rbd, --io-size on fs) counts as given under that one, whose
 * range it must keep: the command's help, checks and result know only
 * the name it shows.
 */
static int take_spellings(struct ccb_cli *cli, char *err, size_t err_len)
{
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		const struct ccb_opt_desc *e = ccb_opt_spelling(d, cli->cmd_mask);
		char v[32], lo[32], hi[32];
		uint64_t n;

		if (!cli->opts.given[d - ccb_opt_table] || !e || e == d)
			continue;
		n = *(const uint64_t *)(const void *)((const char *)&cli->opts + e->offset);
		if (n < e->min || n > e->max) {
			ccb_opt_format_value(e, n, v, sizeof(v));
			ccb_opt_format_value(e, e->min, lo, sizeof(lo));
			ccb_opt_format_value(e, e->max, hi, sizeof(hi));
			snprintf(err, err_len, "--%s '%s': out of range (%s to %s)", d->name, v, lo,
			         hi);
			return -EINVAL;
		}
		cli->opts.given[d - ccb_opt_table] = false;
		cli->opts.given[e - ccb_opt_table] = true;
	}
	return 0;
}

/* A workload's path block holds its path's options from here on (the
 * command above the paths, capacity, takes every path's and selects its
 * workload's later). */
static void select_command(struct ccb_cli *cli, const struct ccb_command *cmd)
{
	cli->command = cmd->name;
	cli->ops = cmd->ops;
	cli->path = cmd->ops ? cmd->ops->name : NULL;
	cli->cmd_mask = cmd->mask;
	cli->mode = cmd->mode;
	if (cmd->ops)
		ccb_opts_block_select(&cli->opts, cmd->mask & CCB_CMD_PATHS);
}

/* The command that the first of @p nwords words select ("rbd" "read"), or
 * NULL; *need receives the number of words its name has. */
static const struct ccb_command *match_command(int nwords, char *const *words, int *need)
{
	for (size_t i = 0; i < N_COMMANDS; i++) {
		const struct ccb_command *cmd = &commands[i];
		size_t l0 = strlen(words[0]);
		int n = strchr(cmd->name, ' ') ? 2 : 1;

		/* The first word must be all of a one-word command or the first of a
		 * two-word one: "group ls" as one argument is neither. */
		if (strncmp(cmd->name, words[0], l0) != 0 || cmd->name[l0] != (n == 2 ? ' ' : '\0'))
			continue;
		if (n == 2 && (nwords < 2 || strcmp(cmd->name + l0 + 1, words[1]) != 0))
			continue;
		*need = n;
		return cmd;
	}
	return NULL;
}

/* @p word is the first word of two-word commands ("rbd"). */
static bool is_group_word(const char *word)
{
	size_t l = strlen(word);

	for (size_t i = 0; i < N_COMMANDS; i++)
		if (l && strncmp(commands[i].name, word, l) == 0 && commands[i].name[l] == ' ')
			return true;
	return false;
}

/* "rbd: expected read, randread, write, randwrite or rw, not 'x'", from the table. */
static int unknown_command(int nwords, char *const *words, char *err, size_t err_len)
{
	size_t l = strlen(words[0]), n = 0, k = 0, used;
	const char *second[MAX_COMMANDS];

	if (!is_group_word(words[0])) {
		snprintf(err, err_len, "unknown command '%s'", words[0]);
		return -EINVAL;
	}
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strncmp(commands[i].name, words[0], l) == 0 && commands[i].name[l] == ' ')
			second[n++] = commands[i].name + l + 1;
	used = (size_t)snprintf(err, err_len, "%s: expected ", words[0]);
	for (k = 0; k < n && used < err_len; k++)
		used += (size_t)snprintf(err + used, err_len - used, "%s%s",
		                         k == 0       ? ""
		                         : k + 1 == n ? " or "
		                                      : ", ",
		                         second[k]);
	if (used < err_len && nwords > 1)
		snprintf(err + used, err_len - used, ", not '%s'", words[1]);
	return -EINVAL;
}

/* `help [COMMAND]`: the command (or group of commands) to show. */
static int help_topic(struct ccb_cli *cli, int nwords, char *const *words, char *err,
                      size_t err_len)
{
	const struct ccb_command *cmd = match_command(nwords, words, &(int){0});

	if (cmd && nwords == (strchr(cmd->name, ' ') ? 2 : 1)) {
		select_command(cli, cmd);
		return 0;
	}
	if (nwords == 1 && is_group_word(words[0])) {
		cli->help_group = words[0];
		return 0;
	}
	if (cmd) {
		snprintf(err, err_len, "help: unexpected argument '%s'", words[nwords - 1]);
		return -EINVAL;
	}
	if (is_group_word(words[0]))
		return unknown_command(nwords, words, err, err_len);
	snprintf(err, err_len, "help: unknown command '%s'", words[0]);
	return -EINVAL;
}

/* The option of short name @p c, or NULL. */
static const struct ccb_opt_desc *short_option(int c)
{
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
		if (d->short_name == c)
			return d;
	return NULL;
}

/* [@p name, @p end) is a long option (a row of the table, help or version). */
static bool long_option(const char *name, const char *end)
{
	size_t l = (size_t)(end - name);

	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
		if (strlen(d->name) == l && strncmp(d->name, name, l) == 0)
			return true;
	return (l == 4 && strncmp(name, "help", 4) == 0) ||
	       (l == 7 && strncmp(name, "version", 7) == 0);
}

/*
 * The command that argv names, found without getopt (which stopped at a
 * bad option): words that are neither options nor their values, as the
 * option table says which options take one. Only for the hint.
 */
static const struct ccb_command *guess_command(int argc, char **argv)
{
	char *words[2];
	int n = 0, need;
	bool all_words = false;

	for (int i = 1; i < argc && n < 2; i++) {
		const char *a = argv[i];

		if (all_words || a[0] != '-' || a[1] == '\0') {
			words[n++] = argv[i];
		} else if (strcmp(a, "--") == 0) {
			all_words = true;
		} else if (a[1] == '-') {
			size_t l = strcspn(a + 2, "=");
			for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
				if (strlen(d->name) == l && strncmp(d->name, a + 2, l) == 0 &&
				    !a[2 + l] && d->type != CCB_OPT_FLAG)
					i++;
		} else {
			for (const char *p = a + 1; *p; p++) {
				const struct ccb_opt_desc *d = short_option(*p);
				if (d && d->type != CCB_OPT_FLAG) {
					i += p[1] == '\0';
					break;
				}
			}
		}
	}
	return n ? match_command(n, words, &need) : NULL;
}

int ccb_cli_select(struct ccb_cli *cli, const char *name, char *err, size_t err_len)
{
	for (size_t i = 0; i < N_COMMANDS; i++) {
		const struct ccb_command *cmd = &commands[i];

		if (strcmp(cmd->name, name) != 0)
			continue;
		select_command(cli, cmd);
		return apply_command_defaults(cli, cmd, err, err_len);
	}
	snprintf(err, err_len, "unknown command '%s'", name);
	return -EINVAL;
}

int ccb_cli_parse(int argc, char **argv, struct ccb_cli *cli, char *err, size_t err_len)
{
	size_t n = ccb_opt_count();
	struct option *longopts = calloc(n + 3, sizeof(*longopts));
	char shortopts[128] = ":h";
	size_t sl = strlen(shortopts);
	const struct ccb_command *cmd;
	char **words;
	int nwords = 0, need = 0, c, r = 0;

	memset(cli, 0, sizeof(*cli));
	ccb_opts_defaults(&cli->opts);
	if (!longopts)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct ccb_opt_desc *d = &ccb_opt_table[i];
		longopts[i].name = d->name;
		longopts[i].has_arg = d->type == CCB_OPT_FLAG ? no_argument : required_argument;
		longopts[i].val = d->short_name ? d->short_name : (int)(2000 + i);
		if (d->short_name && sl + 3 < sizeof(shortopts)) {
			shortopts[sl++] = (char)d->short_name;
			if (d->type != CCB_OPT_FLAG)
				shortopts[sl++] = ':';
			shortopts[sl] = '\0';
		}
	}
	longopts[n] = (struct option){"help", no_argument, NULL, OPT_HELP};
	longopts[n + 1] = (struct option){"version", no_argument, NULL, OPT_VERSION};

	opterr = 0;
	/* 0, not 1: glibc and musl then also forget the position inside the
	 * previous argv (a half-read "-qZ" group, or a pointer into an argv
	 * that is gone), so a second parse in one process starts clean. */
	optind = 0;
	/* A leading '-' in optstring would change semantics; "+" is not used so that
	 * options may follow the command words, as with the ceph CLIs. */
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct ccb_opt_desc *d = NULL;

		if (c == 'h' || c == OPT_HELP) {
			cli->help = true;
			continue;
		}
		if (c == OPT_VERSION) {
			cli->version = true;
			continue;
		}
		if (c == '?') {
			const char *arg = argv[optind - 1];
			const char *eq = strchr(arg, '=');

			/* A long flag given a value also lands here, with optopt its
			 * internal code (not a character to print). */
			if (strncmp(arg, "--", 2) == 0 && eq && long_option(arg + 2, eq))
				snprintf(err, err_len, "option '%.*s' takes no value",
				         (int)(eq - arg), arg);
			else if (strncmp(arg, "--", 2) == 0 && eq)
				snprintf(err, err_len, "unknown option '%.*s'", (int)(eq - arg),
				         arg);
			else if (optopt > ' ' && optopt < 127 && strncmp(arg, "--", 2) != 0)
				snprintf(err, err_len, "unknown option '-%c'", optopt);
			else
				snprintf(err, err_len, "unknown option '%s'", arg);
			r = -EINVAL;
			break;
		}
		if (c == ':') {
			snprintf(err, err_len, "option '%s' needs a value", argv[optind - 1]);
			r = -EINVAL;
			break;
		}
		d = c >= 2000 ? &ccb_opt_table[c - 2000] : short_option(c);
		r = ccb_opt_set(&cli->opts, d, optarg, err, err_len);
		if (r < 0)
			break;
	}
	free(longopts);
	if (r < 0) {
		/* getopt stopped at the bad option: find the command in argv
		 * ourselves, so that the hint can name its --help. */
		const struct ccb_command *guess = guess_command(argc, argv);

		if (guess)
			cli->command = guess->name;
		return r;
	}
	nwords = argc - optind;
	if (nwords == 0) {
		if (cli->help || cli->version)
			return 0;
		snprintf(err, err_len, "no command given");
		return -EINVAL;
	}
	words = argv + optind;
	if (strcmp(words[0], "help") == 0) {
		cli->help = true;
		return nwords == 1 ? 0 : help_topic(cli, nwords - 1, words + 1, err, err_len);
	}
	cmd = match_command(nwords, words, &need);
	if (!cmd) {
		if (is_group_word(words[0]))
			cli->help_group = words[0];
		if (cli->help && nwords == 1 && cli->help_group)
			return 0;
		return unknown_command(nwords, words, err, err_len);
	}
	select_command(cli, cmd);
	if (nwords - need > cmd->n_args) {
		snprintf(err, err_len, "unexpected argument '%s'", words[need + cmd->n_args]);
		return -EINVAL;
	}
	if (nwords - need < cmd->n_args && !cli->help) {
		snprintf(err, err_len, "%s: expected %s", cmd->name, cmd->args_help);
		return -EINVAL;
	}
	for (int a = 0; a < nwords - need; a++)
		cli->args[cli->n_args++] = words[need + a];
	/* bonnie++ spells the file spec -n; ceph spells the entity name -n. A
	 * name always has a dot (client.admin), a file spec never does. */
	const struct ccb_opt_desc *f = ccb_opt_find("files");
	if ((cmd->mask & f->cmds) && cli->opts.name && !strchr(cli->opts.name, '.')) {
		if (ccb_opt_set(&cli->opts, f, cli->opts.name, err, err_len) < 0)
			return -EINVAL;
		cli->opts.name = NULL;
		cli->opts.given[ccb_opt_find("name") - ccb_opt_table] = false;
	}
	/* Options with key material from stdin, as if given here (a runner's). */
	if (cli->opts.secrets_stdin && !cli->help &&
	    ccb_secret_opts_read(&cli->opts, STDIN_FILENO, CCB_SECRET_OPTS_WAIT_USEC, err,
	                         err_len) < 0)
		return -EINVAL;
	if (take_spellings(cli, err, err_len) < 0)
		return -EINVAL;
	return apply_command_defaults(cli, cmd, err, err_len);
}

int ccb_cli_validate(const struct ccb_cli *cli, char *err, size_t err_len)
{
	const struct ccb_path_ops *ops = ccb_path_for(cli->ops, &cli->opts);
	const struct ccb_command *cmd = cli->command ? ccb_cli_command_find(cli->command) : NULL;

	if (ccb_opts_validate(&cli->opts, cli->cmd_mask, err, err_len) < 0)
		return -EINVAL;
	if (cmd && cmd->validate && cmd->validate(&cli->opts, err, err_len) < 0)
		return -EINVAL;
	if (cli->outer && cli->outer->validate &&
	    cli->outer->validate(&cli->opts, err, err_len) < 0)
		return -EINVAL;
	if (ops && ops->validate && ops->validate(&cli->opts, err, err_len) < 0)
		return -EINVAL;
	/* --fault: its times within the run's --duration, when time bounds it. */
	if (cli->opts.faults.n &&
	    ccb_fault_validate(
	        &cli->opts, cli->cmd_mask,
	        ops && (ccb_opt_given(&cli->opts, "duration") ||
	                (!ccb_opt_given(&cli->opts, "total") && !(ops->flags & CCB_PATH_ONE_PASS)))
	            ? cli->opts.duration_usec
	            : 0,
	        err, err_len) < 0)
		return -EINVAL;
	if (cli->ops && (cli->ops->flags & CCB_PATH_PHASED) && cli->opts.rate) {
		snprintf(
		    err, err_len,
		    "--rate: not for %s, whose ops are its phases' calls, not a stream to pace",
		    cli->command);
		return -EINVAL;
	}
	if (cli->ops && (cli->ops->flags & CCB_PATH_PHASED) && cli->opts.until_steady.on) {
		snprintf(err, err_len,
		         "--until-steady: not for %s, whose phases each run to completion (no "
		         "per-second rate to settle)",
		         cli->command);
		return -EINVAL;
	}
	return 0;
}

const char *ccb_cli_command_of(const struct ccb_path_ops *ops, const char *word)
{
	for (size_t i = 0; ops && i < N_COMMANDS; i++) {
		const char *sp = strchr(commands[i].name, ' ');

		if (commands[i].ops && strcmp(commands[i].ops->name, ops->name) == 0 && sp &&
		    strcmp(sp + 1, word) == 0)
			return commands[i].name;
	}
	return NULL;
}

const char *ccb_cli_sibling(const struct ccb_cli *cli, const char *word)
{
	return ccb_cli_command_of(cli->ops, word);
}
